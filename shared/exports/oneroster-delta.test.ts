// The delta tables from a snapshot and the deletions since (docs/exports.md, "OneRoster CSV delta"): only
// what changed after the time, active with its time; deletions as tobedeleted, but never of what is there.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Deletion } from '../data/pages';
import { indexRoster, type OneRosterTable, oneRosterTables, rosterTables } from './oneroster-csv';
import { type DeltaDeletions, deltaDeletionGroups, deltaRows } from './oneroster-delta';
import type { RosterGroup, RosterSource, Row } from './roster-source';

const since = '2026-10-01T00:00:00.000Z';
const before = '2026-09-01T00:00:00.000Z';
const after = '2026-10-02T00:00:00.000Z';
const ids = {
  district: '00000000-0000-4000-8000-000000000001',
  teacher: '00000000-0000-4000-8000-000000000002',
  teacherRole: '00000000-0000-4000-8000-000000000003',
  studentRole: '00000000-0000-4000-8000-000000000004',
  course: '00000000-0000-4000-8000-000000000005',
  gone: '00000000-0000-4000-8000-000000000006',
};
const lists = { addresses: [], contacts: [], documents: [], bankAccounts: [] };

function snapshot(teacherChangedAt: string): RosterSource {
  const district = {
    entity_id: ids.district,
    entity_type: 'organisation',
    org_type: 'district',
    parent_id: null,
    name: 'Agrupamento',
    email: 'a@example.org',
    roles: [],
    ...lists,
    created_at: before,
    updated_at: before,
  };
  const teacher = {
    ...district,
    entity_id: ids.teacher,
    entity_type: 'person',
    name: 'Ana Silva',
    email: 'ana@example.org',
    roles: [{ role: 'teacher', id: ids.teacherRole }],
    updated_at: teacherChangedAt,
  };
  const role = {
    teacher_id: ids.teacherRole,
    entity_id: ids.teacher,
    ative: true,
    gender: 'Female',
    birth_date: '1980-01-02',
    naturality: 'Porto',
    updated_at: before,
  };
  const course = {
    course_id: ids.course,
    title: 'Matemática',
    course_code: 'MAT',
    grades: [],
    subjects: [],
    org_id: ids.district,
    created_at: after,
    updated_at: after,
  };
  const records: Partial<Record<RosterGroup, object[]>> = {
    entities: [district, teacher],
    teachers: [role],
    courses: [course],
  };
  return async function* (group: RosterGroup) {
    yield* records[group] ?? [];
  } as RosterSource;
}

function deletions(found: Partial<DeltaDeletions>): DeltaDeletions {
  return { ...Object.fromEntries(deltaDeletionGroups.map((g) => [g, []])), ...found } as DeltaDeletions;
}

/** The delta tables of a snapshot, as an export run makes them, each read whole. */
async function oneRosterDeltaRows(
  read: RosterSource,
  changedSince: string,
  found: DeltaDeletions,
): Promise<Record<OneRosterTable, Row[]>> {
  const rows = await deltaRows(
    rosterTables(await indexRoster(read, new Map(), changedSince), read),
    changedSince,
    found,
  );
  const tables = {} as Record<OneRosterTable, Row[]>;
  for (const table of oneRosterTables) {
    tables[table] = [];
    for await (const row of rows[table]()) tables[table].push(row);
  }
  return tables;
}

describe('the delta tables', () => {
  it('keeps only the rows changed after the time, active with their last change', async () => {
    const unchanged = await oneRosterDeltaRows(snapshot(before), since, deletions({}));
    expect(unchanged.users).toEqual([]);
    expect(unchanged.orgs).toEqual([]);
    expect(unchanged.courses).toEqual([
      expect.objectContaining({ sourcedId: ids.course, status: 'active', dateLastModified: after }),
    ]);
    const changed = await oneRosterDeltaRows(snapshot(after), since, deletions({}));
    expect(changed.users).toEqual([
      expect.objectContaining({ sourcedId: ids.teacher, status: 'active', dateLastModified: after }),
    ]);
    expect(changed.roles).toEqual([
      expect.objectContaining({ sourcedId: ids.teacherRole, status: 'active' }),
    ]);
  });

  it('tells of a deleted role, but not of its user while they keep another, nor of an id there again', async () => {
    const at = '2026-10-03T00:00:00.000Z';
    const rows = await oneRosterDeltaRows(
      snapshot(before),
      since,
      deletions({
        students: [
          { id: ids.studentRole, deleted_at: at, kept: { entity_id: ids.teacher } },
        ] as Deletion<'students'>[],
        courses: [
          { id: ids.course, deleted_at: at, kept: {} },
          { id: ids.gone, deleted_at: at, kept: {} },
        ] as Deletion<'courses'>[],
      }),
    );
    expect(rows.roles).toEqual([
      {
        sourcedId: ids.studentRole,
        status: 'tobedeleted',
        dateLastModified: at,
        role: 'student',
        userSourcedId: ids.teacher,
      },
    ]);
    expect(rows.users).toEqual([]);
    expect(rows.courses.map((c) => [c.sourcedId, c.status])).toEqual([
      [ids.course, 'active'],
      [ids.gone, 'tobedeleted'],
    ]);
  });

  it("tells of deleted gradebook objects: a class's scale, but not the tenant's, which no zip holds", async () => {
    const at = '2026-10-03T00:00:00.000Z';
    const [classScale, tenantScale, result] = [randomUUID(), randomUUID(), randomUUID()];
    const rows = await oneRosterDeltaRows(
      snapshot(before),
      since,
      deletions({
        score_scales: [
          { id: classScale, deleted_at: at, kept: { type: 'letter', class_id: randomUUID() } },
          { id: tenantScale, deleted_at: at, kept: { type: 'letter', class_id: null } },
        ] as Deletion<'score_scales'>[],
        results: [{ id: result, deleted_at: at, kept: {} }] as Deletion<'results'>[],
      }),
    );
    expect(rows.scoreScales).toEqual([
      { sourcedId: classScale, status: 'tobedeleted', dateLastModified: at },
    ]);
    expect(rows.results).toEqual([{ sourcedId: result, status: 'tobedeleted', dateLastModified: at }]);
  });
});
