// The audit log of the routes of person records: a file in the local run (AUDIT_LOG_FILE), standard
// output in Lambda, whence the tenant's audit log group receives it.
import { type AuditLog, fileAuditLog, stdoutAuditLog } from '../audit/audit-log';
import { config, once } from './context';

export const auditLog = once((): AuditLog => {
  const file = config().auditLogFile;
  return file ? fileAuditLog(file) : stdoutAuditLog();
});
