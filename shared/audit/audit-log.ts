// Where audit events go. A deployed function writes each as one JSON line on standard output, marked
// `"message":"audit"`; a subscription filter on the function log group sends those lines to the
// forwarder (functions/audit/forward.ts), which writes them to the tenant's dedicated audit log group.
// So the request path makes no extra call and carries no extra SDK client. The local run appends them
// to a file under DATA_DIR instead, which `npm run admin -- audit person` reads.
import { appendFile } from 'node:fs/promises';
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

export const fileAuditLog = (path: string): AuditLog => ({
  // It names who saw whose records: its owner's to read only, whatever the umask.
  write: (event) => appendFile(path, `${auditLine(event)}\n`, { mode: 0o600 }),
});
