/** What a request read or changed of people's records, by id, for its audit event (shared/audit/). */
export interface AuditSubject {
  recordIds: string[];
  entityIds: string[];
}
