// Concurrent writers and a syncing reader (issue "Writing records", deliverables 3 to 5 and 7): one
// winner per version, exact counters under parallel creates and deletes, and a delta-sync client that
// ends with exactly the final state while another client writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Student } from '../shared/schemas/records';
import { json } from './support/contract';
import { personBody } from './support/fixtures';
import { startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

async function walk(path: string, key: string): Promise<Row[]> {
  const rows: Row[] = [];
  let page = await json<Row>(await api.get(`${path}${path.includes('?') ? '&' : '?'}items_per_page=100`));
  for (;;) {
    rows.push(...(page[key] as Row[]));
    if (!page.next_cursor) return rows;
    page = await json<Row>(
      await api.get(`${path}${path.includes('?') ? '&' : '?'}items_per_page=100&cursor=${page.next_cursor}`),
    );
  }
}

describe('concurrent writers', () => {
  it('updating from the same ETag: exactly one wins, the others get 412, nothing is overwritten', async () => {
    const created = await json<Row>(await api.send('POST', '/api/students', personBody('A')), 201);
    const path = `/api/students/${created.student_id}`;
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api.send(
          'PUT',
          path,
          { ...personBody('A'), name: `Escritor ${i}` },
          { headers: { 'if-match': '"1"' } },
        ),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(11);
    const winner = await json<Row>(responses[statuses.indexOf(200)] as Response);
    const stored = await json<Row>(await api.get(path));
    expect(stored.name).toBe(winner.name);
    expect((await api.get(path)).headers.get('etag')).toBe('"2"');
  });

  it('many parallel creates and deletes leave every counter equal to a fresh count', async () => {
    const first = await Promise.all(
      Array.from({ length: 24 }, () => api.send('POST', '/api/staffs', personBody('F'))),
    );
    expect(first.map((r) => r.status)).toEqual(Array(24).fill(201));
    const staffs = await Promise.all(first.map((r) => json<Row>(r, 201)));
    const mixed = await Promise.all([
      ...staffs.slice(0, 12).map((s) => api.send('DELETE', `/api/staffs/${s.staff_id}`)),
      ...Array.from({ length: 12 }, () => api.send('POST', '/api/staffs', personBody('F'))),
      ...Array.from({ length: 6 }, () =>
        api.send('POST', '/api/entities', { ...personBody(), entity_type: 'person' }),
      ),
    ]);
    expect(mixed.every((r) => r.status === 204 || r.status === 201 || r.status === 400)).toBe(true);
    const counts = (await json<{ counts: Record<string, number> }>(await api.get('/api/system'))).counts;
    expect((await walk('/api/staffs', 'staffs')).length).toBe(counts.staffs);
    expect((await walk('/api/entities', 'entities')).length).toBe(counts.entities);
  });
});

describe('a delta-sync client (updated_since and /deleted)', () => {
  it('sees every change while another client writes, ending with exactly the final state', async () => {
    const replica = new Map<string, Student>();
    let watermark: string | undefined;

    const syncRound = async () => {
      const since = watermark ?? '1970-01-01T00:00:00Z';
      const changes = await json<Row>(
        await api.get(`/api/students?updated_since=${since}&items_per_page=40`),
      );
      let page = changes;
      for (;;) {
        for (const student of page.students as Student[]) replica.set(student.student_id, student);
        if (!page.next_cursor) break;
        page = await json<Row>(await api.get(`/api/students?items_per_page=40&cursor=${page.next_cursor}`));
      }
      // The first round takes every retained deletion: one may fall inside the first changes walk.
      const deletedSince = watermark ? `since=${watermark}&` : '';
      let deletions = await json<Row>(
        await api.get(`/api/students/deleted?${deletedSince}items_per_page=40`),
      );
      const deletionsUntil = deletions.sync_until as string;
      for (;;) {
        for (const d of deletions.deleted as { student_id: string }[]) replica.delete(d.student_id);
        if (!deletions.next_cursor) break;
        deletions = await json<Row>(
          await api.get(`/api/students/deleted?items_per_page=40&cursor=${deletions.next_cursor}`),
        );
      }
      const changesUntil = changes.sync_until as string;
      // Resume both feeds from the earlier watermark: replaying a change or a deletion is harmless.
      watermark = [changesUntil, deletionsUntil].sort()[0];
    };

    let writing = true;
    const writer = (async () => {
      const mine: Student[] = [];
      for (let i = 0; i < 60; i++) {
        const roll = i % 4;
        if (roll === 3 && mine.length > 0) {
          const victim = mine.splice(i % mine.length, 1)[0] as Student;
          expect((await api.send('DELETE', `/api/students/${victim.student_id}`)).status).toBe(204);
        } else if (roll === 2 && mine.length > 0) {
          const target = mine[i % mine.length] as Student;
          const response = await api.send('PUT', `/api/students/${target.student_id}`, {
            ...personBody('A'),
            name: `Revisto ${i}`,
          });
          expect(response.status).toBe(200);
        } else {
          mine.push(await json<Student>(await api.send('POST', '/api/students', personBody('A')), 201));
        }
      }
      writing = false;
    })();
    const reader = (async () => {
      while (writing) await syncRound();
    })();
    await Promise.all([writer, reader]);
    await waitForSyncLag();
    await syncRound();

    const final = await walk('/api/students', 'students');
    expect(replica.size).toBe(final.length);
    for (const student of final) expect(replica.get(student.student_id as string)).toEqual(student);
  });
});
