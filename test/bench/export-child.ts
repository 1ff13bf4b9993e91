// Runs one export of a tenant in a child process (export-worker.ts) and answers what it measured.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ExportMeasure {
  seconds: number;
  peakRssMiB: number;
  peakHeapMiB: number;
  /** Records of every group exported. */
  records: number;
  students: number;
  enrollments: number;
  /** students.ndjson.gz and students.csv. */
  ndjsonMiB: number;
  csvMiB: number;
  /** The OneRoster CSV bulk zip. */
  onerosterMiB: number;
}

const worker = fileURLToPath(new URL('./export-worker.ts', import.meta.url));

/** The tenant's table and bucket and their endpoints, as the export function's configuration names them. */
export function measureExport(env: Record<string, string>): Promise<ExportMeasure> {
  const child = spawn(process.execPath, ['--import', 'tsx', worker], {
    env: {
      ...process.env,
      AWS_REGION: 'eu-west-1',
      SYNC_LAG_MS: '0',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as ExportMeasure)
        : reject(new Error(`the export worker exited ${code}`)),
    ),
  );
}
