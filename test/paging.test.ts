// Paging of every list (contract section 4): pages are disjoint, a cursor walk sees every record
// exactly once even while records are added, page jumps agree with the walk, and bad paging values
// get 400 problems.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../shared/data/cursor';
import { insertRecords } from '../shared/data/seed-records';
import { recordGroups } from '../shared/domain/groups';
import type { Student } from '../shared/schemas/records';
import { expectProblem, json } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

interface Page {
  students: Student[];
  page: number;
  items_per_page: number;
  total_items: number;
  total_pages: number;
  next_cursor?: string;
}

const listStudents = async (query: string) => json<Page>(await api.get(`/api/students?${query}`));

async function walk(itemsPerPage: number, between?: (page: Page) => Promise<void>) {
  const seen: string[] = [];
  let page = await listStudents(`items_per_page=${itemsPerPage}`);
  const pages = [page];
  for (;;) {
    seen.push(...page.students.map((s) => s.student_id));
    await between?.(page);
    if (!page.next_cursor) break;
    page = await listStudents(`items_per_page=${itemsPerPage}&cursor=${page.next_cursor}`);
    pages.push(page);
  }
  return { seen, pages };
}

let counter = 0;
/** A new student, its id drawn so it sorts anywhere in the list. */
function newStudent(template: Student): Student {
  counter += 1;
  const hex = (counter * 2654435761).toString(16).padStart(8, '0').slice(-8);
  return {
    ...template,
    student_id: `${hex}-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    processnumber: `T${counter}`,
  };
}

describe('cursor walks', () => {
  it('visit every record exactly once, in pages that match total_items and total_pages', async () => {
    const first = await listStudents('items_per_page=500');
    const { seen, pages } = await walk(17);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(first.students.map((s) => s.student_id));
    expect(seen.length).toBe(first.total_items);
    expect(pages.length).toBe(Math.ceil(first.total_items / 17));
    pages.forEach((page, i) => {
      expect(page.page).toBe(i + 1);
      expect(page.total_pages).toBe(pages.length);
      expect(page.students.length).toBe(i < pages.length - 1 ? 17 : first.total_items - 17 * i);
    });
  });

  it('see every record that existed throughout exactly once while others are added', async () => {
    const before = (await listStudents('items_per_page=500')).students;
    const template = before[0] as Student;
    const added: string[] = [];
    const { seen } = await walk(11, async () => {
      const batch = [newStudent(template), newStudent(template), newStudent(template)];
      await insertRecords(
        api.db,
        api.tableName,
        batch.map((record) => ({ group: 'students', record })),
      );
      added.push(...batch.map((s) => s.student_id));
    });
    expect(new Set(seen).size).toBe(seen.length);
    for (const student of before) expect(seen).toContain(student.student_id);
    expect(seen.filter((id) => !added.includes(id)).length).toBe(before.length);
    const after = await listStudents('items_per_page=1');
    expect(after.total_items).toBe(before.length + added.length);
    const full = await walk(500);
    expect(full.seen.length).toBe(after.total_items);
  });
});

describe('page numbers', () => {
  it('give disjoint pages that agree with the cursor walk', async () => {
    const { pages } = await walk(20);
    for (const [i, walked] of pages.entries()) {
      const jumped = await listStudents(`items_per_page=20&page=${i + 1}`);
      expect(jumped.students.map((s) => s.student_id)).toEqual(walked.students.map((s) => s.student_id));
      expect(jumped.page).toBe(i + 1);
      expect(Boolean(jumped.next_cursor)).toBe(i < pages.length - 1);
    }
  });

  it('past the last page give an empty page without a cursor', async () => {
    const beyond = await listStudents('items_per_page=50&page=999');
    expect(beyond.students).toEqual([]);
    expect(beyond.page).toBe(999);
    expect(beyond.next_cursor).toBeUndefined();
  });

  it('default to page 1 of 50', async () => {
    const page = await listStudents('');
    expect(page.page).toBe(1);
    expect(page.items_per_page).toBe(50);
    expect(page.students.length).toBe(50);
  });
});

describe('changes pages', () => {
  it('hold up to items_per_page records, more than one BatchGetItem reads at once', async () => {
    const all = await listStudents('items_per_page=500');
    const changes = await listStudents('updated_since=2000-01-01T00:00:00Z&items_per_page=110');
    expect(all.total_items).toBeGreaterThan(110);
    expect(changes.students).toHaveLength(110);
    expect(changes.next_cursor).toBeDefined();
  });
});

describe('bad paging values get 400 problems naming the parameter', () => {
  const bad: [string, string][] = [
    ['page', '0'],
    ['page', '-1'],
    ['page', '1.5'],
    ['page', 'abc'],
    ['page', ''],
    ['page', '1e2'],
    ['page', ' 1'],
    ['page', '0x10'],
    ['page', '99999999999999999999'],
    ['items_per_page', '0'],
    ['items_per_page', '501'],
    ['items_per_page', '-5'],
    ['items_per_page', 'NaN'],
    ['items_per_page', '10.0'],
  ];
  it.each(bad)('%s=%s', async (name, value) => {
    for (const group of recordGroups) {
      const problem = await expectProblem(
        await api.get(`/api/${group}?${name}=${encodeURIComponent(value)}`),
        400,
      );
      expect(problem.errors).toContainEqual(expect.objectContaining({ name, in: 'query' }));
    }
  });

  it('a parameter given twice', async () => {
    await expectProblem(await api.get('/api/students?page=1&page=2'), 400);
  });

  it('cursors that this tenant did not issue for this list', async () => {
    const otherTenant = encodeCursor({ ...api.cursorIssuer, tenantId: 'another-school' }, 'students', {
      kind: 'list',
      page: 2,
      after: '00000000-0000-4000-8000-000000000000',
    });
    const otherList = encodeCursor(api.cursorIssuer, 'teachers', {
      kind: 'list',
      page: 2,
      after: '00000000-0000-4000-8000-000000000000',
    });
    const garbage = [
      'abc',
      '!!!',
      Buffer.from('{"v":1}').toString('base64url'),
      Buffer.from('[]').toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, t: 'demo', g: 'students', p: 2, a: "' OR 1=1" })).toString(
        'base64url',
      ),
      'x'.repeat(2000),
      // Of the shape the service writes, but unsigned, with a position past its window (issue 21).
      Buffer.from(
        JSON.stringify({
          v: 1,
          t: 'demo',
          g: 'students',
          k: 'changes',
          s: '2026-01-01T00:00:00Z',
          u: '2026-02-01T00:00:00Z',
          a: '2027-01-01T00:00:00Z#x',
        }),
      ).toString('base64url'),
      `${otherList.split('.')[0]}.${'A'.repeat(22)}`,
    ];
    for (const cursor of [otherTenant, otherList, ...garbage]) {
      const problem = await expectProblem(
        await api.get(`/api/students?cursor=${encodeURIComponent(cursor)}`),
        400,
      );
      expect(problem.errors?.[0]?.name).toBe('cursor');
    }
  });

  it('a cursor together with a page number', async () => {
    const first = await listStudents('items_per_page=5');
    const problem = await expectProblem(
      await api.get(`/api/students?items_per_page=5&page=2&cursor=${first.next_cursor}`),
      400,
    );
    expect(problem.errors?.[0]?.name).toBe('page');
  });
});
