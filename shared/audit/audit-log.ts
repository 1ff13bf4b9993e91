// Where audit events go. A deployed function writes each as one JSON line on standard output, marked
// `"message":"audit"`; a subscription filter on the function log group sends those lines to the
// forwarder (functions/audit/forward.ts), which writes them to the tenant's dedicated audit log group.
// So the request path makes no extra call and carries no extra SDK client. The local run appends them
// to a file under DATA_DIR instead, which `npm run admin -- audit person` reads.
import { closeSync, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import type { AuditEvent } from './audit-event';

export const AUDIT_MESSAGE = 'audit';

export interface AuditLog {
  write(event: AuditEvent): Promise<void>;
}

/** The line an audit event is written as, on standard output or in the local file. */
export const auditLine = (event: AuditEvent) =>
  JSON.stringify({ level: 'info', message: AUDIT_MESSAGE, audit: event });

export const stdoutAuditLog = (write = (line: string) => process.stdout.write(`${line}\n`)): AuditLog => ({
  write: async (event) => {
    write(auditLine(event));
  },
});

/**
 * Appends each event to the file through one descriptor kept open, checked against the path before each
 * line: opening and closing the file for every event was a tenth of the local run's work per request. The
 * file moved, removed or replaced (rotated, or a folder put in its place) is opened again at the path, so
 * every line lands where the path points, as it would were the file opened for each, and an unwritable
 * path fails the write. Written synchronously, as the log lines are: one short line to a local file.
 */
export const fileAuditLog = (path: string): AuditLog => {
  let open: { fd: number; ino: number } | undefined;
  const current = () => {
    const at = statSync(path, { throwIfNoEntry: false });
    if (open && at?.isFile() && at.ino === open.ino) return open.fd;
    if (open) closeSync(open.fd);
    open = undefined;
    // It names who saw whose records: its owner's to read only, whatever the umask.
    const fd = openSync(path, 'a', 0o600);
    open = { fd, ino: fstatSync(fd).ino };
    return fd;
  };
  return {
    write: async (event) => {
      writeSync(current(), `${auditLine(event)}\n`);
    },
  };
};
