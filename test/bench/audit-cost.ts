// Section 7, the audit trail: what one request's audit event costs the function, measured in process as
// the local run spends it (shared/http/api.ts builds the event, shared/wiring/audit-log.ts appends its
// line to the local audit file), for a page of 50 students and for one. The two steps are timed apart:
// a deployed function builds the same event and writes the same line to standard output instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { auditEvents, subjectOf } from '../../shared/audit/audit-event';
import { auditLine, fileAuditLog } from '../../shared/audit/audit-log';
import type { AccessToken } from '../../shared/auth/access-token';
import { idFields } from '../../shared/domain/groups';
import { type RouteId, routeById } from '../../shared/routes';
import { PAGE_ITEMS } from './bare-calls';
import { type Operation, OVERHEAD_TARGET } from './overhead';
import { type Latency, latency, round } from './stats';

export interface AuditCost {
  operation: Operation;
  records: number;
  /** Bytes of the line appended for one request. */
  lineBytes: number;
  /** Building the event from the request and the records the handler returned. */
  build: Latency;
  /** Serialising it and appending the line to the audit file. */
  append: Latency;
  /** The two together, per request. */
  total: Latency;
  /** The total p50 as a share of the operation's whole per-request overhead allowance. */
  shareOfTarget: number;
}

/** A person's token, so the event carries every field it can: client, acting user and entity. */
const auth: AccessToken = {
  sub: 'bench-user',
  clientId: 'bench-client',
  tenantId: 'bench',
  scopes: ['students:read'],
  issuedAt: 0,
  expiresAt: 0,
  jti: 'bench-token',
  person: { userId: 'bench-user', entityId: 'bench-entity', roles: [] },
};

const student = (i: number) => ({
  student_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  entity_id: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
});

export async function measureAuditCost(samples: number): Promise<AuditCost[]> {
  const dir = mkdtempSync(`${tmpdir()}/school-bench-audit-`);
  const file = `${dir}/audit.log`;
  const log = fileAuditLog(file);
  const operations: [Operation, RouteId, number][] = [
    ['list', 'list-students', PAGE_ITEMS],
    ['get', 'get-students', 1],
  ];
  try {
    const results: AuditCost[] = [];
    for (const [operation, routeId, count] of operations) {
      const route = routeById(routeId);
      const records = Array.from({ length: count }, (_, i) => student(i));
      const eventOf = (requestId: string) =>
        auditEvents({
          route,
          group: 'students',
          requestId,
          auth,
          subject: subjectOf(idFields.students, records),
          outcome: 200,
        });
      const times = { build: [] as number[], append: [] as number[], total: [] as number[] };
      // The first tenth warms the code and the file up and is not counted.
      const warmup = Math.ceil(samples / 10);
      for (let i = 0; i < warmup + samples; i++) {
        const start = performance.now();
        const events = eventOf(`bench-${i}`);
        const built = performance.now();
        for (const event of events) await log.write(event);
        const end = performance.now();
        if (i < warmup) continue;
        times.build.push(built - start);
        times.append.push(end - built);
        times.total.push(end - start);
      }
      const total = latency(times.total);
      results.push({
        operation,
        records: count,
        lineBytes: eventOf('bench').reduce(
          (bytes, event) => bytes + Buffer.byteLength(`${auditLine(event)}\n`),
          0,
        ),
        build: rounded(latency(times.build)),
        append: rounded(latency(times.append)),
        total: rounded(total),
        shareOfTarget: round(total.p50 / OVERHEAD_TARGET[operation], 3),
      });
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rounded = (l: Latency): Latency => ({ n: l.n, p50: round(l.p50, 3), p95: round(l.p95, 3) });
