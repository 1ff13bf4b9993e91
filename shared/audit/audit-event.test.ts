// Which routes are audited, and what a request names in its path when its handler says nothing: the
// native routes of person groups, and the OneRoster routes that return or name people.
import { describe, expect, it } from 'vitest';
import { type RouteId, routeById, routes } from '../routes';
import { auditEvents, IDS_PER_EVENT, namedSubject } from './audit-event';
import { auditLine } from './audit-log';

const V1P2 = '/ims/oneroster/rostering/v1p2';

describe('the audited routes', () => {
  const auditedGroup = (path: string) => routes.find((r) => r.path === path)?.audit?.group;

  it('audits the native person groups and nothing else of the native API', () => {
    expect(auditedGroup('/api/students/{student_id}')).toBe('students');
    expect(auditedGroup('/api/entities')).toBe('entities');
    expect(auditedGroup('/api/classes')).toBeUndefined();
    expect(auditedGroup('/api/system')).toBeUndefined();
  });

  it('audits, as reads of entities, exactly the OneRoster routes whose path names people', () => {
    const audited = routes
      .filter((r) => r.path.startsWith(V1P2) && r.audit !== undefined)
      .map((r) => r.path.slice(V1P2.length));
    expect(audited.sort()).toEqual(
      [
        '/users',
        '/users/{sourcedId}',
        '/students',
        '/students/{sourcedId}',
        '/teachers',
        '/teachers/{sourcedId}',
        '/demographics',
        '/demographics/{sourcedId}',
        '/schools/{sourcedId}/students',
        '/schools/{sourcedId}/teachers',
        '/schools/{sourcedId}/classes/{classSourcedId}/students',
        '/schools/{sourcedId}/classes/{classSourcedId}/teachers',
        '/classes/{sourcedId}/students',
        '/classes/{sourcedId}/teachers',
        '/users/{sourcedId}/classes',
        '/students/{sourcedId}/classes',
        '/teachers/{sourcedId}/classes',
      ].sort(),
    );
    for (const path of audited) expect(auditedGroup(`${V1P2}${path}`)).toBe('entities');
  });
});

describe('namedSubject', () => {
  const person = '0F1C1D1E-0000-4000-8000-000000000001';
  const auditOf = (id: RouteId) => {
    const audit = routeById(id).audit;
    if (!audit) throw new Error(`${id} is not audited`);
    return audit;
  };
  it('names the people a OneRoster path names, never a school or class', () => {
    expect(namedSubject(auditOf('list-oneroster-classes-of-user'), { sourcedId: person })).toEqual({
      recordIds: [person.toLowerCase()],
      entityIds: [person.toLowerCase()],
    });
    expect(
      namedSubject(auditOf('list-oneroster-students-of-class-in-school'), {
        sourcedId: 'a',
        classSourcedId: 'b',
      }),
    ).toEqual({ recordIds: [], entityIds: [] });
  });

  it('names every path id on the native routes, as entities only for the entities group', () => {
    expect(namedSubject(auditOf('get-students'), { student_id: 's' })).toEqual({
      recordIds: ['s'],
      entityIds: [],
    });
    expect(namedSubject(auditOf('get-entities'), { entity_id: 'e' })).toEqual({
      recordIds: ['e'],
      entityIds: ['e'],
    });
  });
});

describe('auditEvents', () => {
  const input = (records: number, entities: number) => ({
    route: { id: 'list-oneroster-users', method: 'GET', access: 'read' },
    group: 'entities' as const,
    requestId: 'r-1',
    auth: undefined,
    subject: {
      recordIds: Array.from(
        { length: records },
        (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      ),
      entityIds: Array.from(
        { length: entities },
        (_, i) => `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      ),
    },
    outcome: 200,
  });

  it('writes an answer that names few ids as one event, unnumbered', () => {
    const [event, ...more] = auditEvents(input(3, 3));
    expect(more).toEqual([]);
    expect(event).not.toHaveProperty('part');
    expect(event?.record_ids).toHaveLength(3);
  });

  it('splits the ids of a large answer over numbered events, each line under 256 KB, dropping none', () => {
    const events = auditEvents(input(IDS_PER_EVENT * 2 + 1, IDS_PER_EVENT + 5));
    expect(events.map((e) => [e.part, e.parts])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(events.flatMap((e) => e.record_ids)).toEqual(input(IDS_PER_EVENT * 2 + 1, 0).subject.recordIds);
    expect(events.flatMap((e) => e.entity_ids)).toEqual(input(0, IDS_PER_EVENT + 5).subject.entityIds);
    expect(new Set(events.map((e) => e.request_id))).toEqual(new Set(['r-1']));
    for (const event of events) expect(Buffer.byteLength(auditLine(event))).toBeLessThan(100_000);
  });
});
