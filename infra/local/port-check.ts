// The API's port is tried before DynamoDB Local starts and the demo tenant is seeded, so a busy port is
// reported at once instead of after them.
import { createServer } from 'node:net';

export class PortInUseError extends Error {
  constructor(host: string, port: number) {
    super(
      `Port ${port} on ${host} is already in use (another npm start?): stop what listens there, or set PORT to another port (PORT=0 picks a free one).`,
    );
  }
}

/** Listens on the port for a moment; throws PortInUseError when something else has it. */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, port) : error),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
