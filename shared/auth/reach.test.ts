import { describe, expect, it } from 'vitest';
import type { Entity, Tutor } from '../schemas/records';
import { idsInReach, reachSources } from './reach';

const entity = {
  entity_id: 'e0',
  roles: [
    { role: 'tutor', id: 't2' },
    { role: 'student', id: 's9' },
    { role: 'tutor', id: 't1' },
  ],
} as Entity;
const tutors = [{ student_ids: ['s3', 's1'] }, { student_ids: ['s1', 's2'] }] as Tutor[];

describe('the ids a reach gives (issue 3, deliverable 6)', () => {
  it('own: the records of the group its entity names', () => {
    expect(idsInReach('tutors', ['own'], entity, tutors)).toEqual(['t1', 't2']);
    expect(idsInReach('students', ['own'], entity, tutors)).toEqual(['s9']);
    expect(idsInReach('teachers', ['own'], entity, tutors)).toEqual([]);
    expect(idsInReach('entities', ['own'], entity, tutors)).toEqual(['e0']);
  });

  it('in-care: the students of the tutor records, once each, in id order', () => {
    expect(idsInReach('students', ['in-care'], entity, tutors)).toEqual(['s1', 's2', 's3']);
    expect(idsInReach('students', ['in-care', 'own'], entity, tutors)).toEqual(['s1', 's2', 's3', 's9']);
  });

  it('nothing without a reach', () => {
    expect(idsInReach('students', [], entity, tutors)).toEqual([]);
  });
});

describe('what a restricted read consults', () => {
  it('the entity for own, and the tutor records for in-care', () => {
    expect(reachSources('students')).toEqual(['entities', 'tutors']);
    expect(reachSources('tutors')).toEqual(['entities']);
    expect(reachSources('teachers')).toEqual([]);
    expect(reachSources('staffs')).toEqual([]);
    expect(reachSources('entities')).toEqual([]);
  });
});
