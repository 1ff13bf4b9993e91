// Which routes are audited, and what a request names in its path when its handler says nothing: the
// native routes of person groups, and the OneRoster routes that return or name people.
import { describe, expect, it } from 'vitest';
import { routes } from '../routes';
import { auditedGroup, namedSubject } from './audit-event';

const V1P2 = '/ims/oneroster/rostering/v1p2';

describe('auditedGroup', () => {
  it('audits the native person groups and nothing else of the native API', () => {
    expect(auditedGroup('/api/students/{student_id}')).toBe('students');
    expect(auditedGroup('/api/entities')).toBe('entities');
    expect(auditedGroup('/api/classes')).toBeUndefined();
    expect(auditedGroup('/api/system')).toBeUndefined();
  });

  it('audits, as reads of entities, exactly the OneRoster routes whose path names people', () => {
    const audited = routes
      .filter((r) => r.path.startsWith(V1P2) && auditedGroup(r.path) !== undefined)
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
  it('names the people a OneRoster path names, never a school or class', () => {
    expect(namedSubject(`${V1P2}/users/{sourcedId}/classes`, { sourcedId: person }, 'entities')).toEqual({
      recordIds: [person.toLowerCase()],
      entityIds: [person.toLowerCase()],
    });
    expect(
      namedSubject(
        `${V1P2}/schools/{sourcedId}/classes/{classSourcedId}/students`,
        { sourcedId: 'a', classSourcedId: 'b' },
        'entities',
      ),
    ).toEqual({ recordIds: [], entityIds: [] });
  });

  it('names every path id on the native routes, as entities only for the entities group', () => {
    expect(namedSubject('/api/students/{student_id}', { student_id: 's' }, 'students')).toEqual({
      recordIds: ['s'],
      entityIds: [],
    });
    expect(namedSubject('/api/entities/{entity_id}', { entity_id: 'e' }, 'entities')).toEqual({
      recordIds: ['e'],
      entityIds: ['e'],
    });
  });
});
