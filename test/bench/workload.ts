// The requests the overhead and throughput benchmarks send, in their three forms: through the whole
// stack over HTTP, to the bare server over HTTP, and as the bare document-client call itself.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEMO_CLIENT_ID } from '../../infra/local/bootstrap';
import { PAGE_ITEMS, pageQuery, studentGet } from './bare-calls';
import type { HttpClient } from './http-client';

export const DEMO_SECRET = 'bench-secret';

export interface Workload {
  token: string;
  studentId: string;
  stack: { list: string; get: string };
  bare: { list: string; get: string };
  headers: Record<string, string>;
  /** The Query the repository sends for the first page: one record past the page tells if more follow. */
  query(): Promise<unknown>;
  getItem(): Promise<unknown>;
}

export async function issueToken(api: HttpClient): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: DEMO_CLIENT_ID,
    client_secret: DEMO_SECRET,
  }).toString();
  const answer = await api.send('/api/sso/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return (JSON.parse(answer) as { access_token: string }).access_token;
}

export async function workload(
  db: DynamoDBDocumentClient,
  tableName: string,
  api: HttpClient,
): Promise<Workload> {
  const token = await issueToken(api);
  const query = () => db.send(pageQuery(tableName));
  const { Items = [] } = await query();
  // A student from the middle of the first page, so the get and the list read the same records.
  const studentId = String(Items[Math.floor(PAGE_ITEMS / 2)]?.student_id);
  return {
    token,
    studentId,
    stack: { list: `/api/students?items_per_page=${PAGE_ITEMS}`, get: `/api/students/${studentId}` },
    bare: { list: '/students', get: `/students/${studentId}` },
    headers: { authorization: `Bearer ${token}` },
    query,
    getItem: () => db.send(studentGet(tableName, studentId)),
  };
}
