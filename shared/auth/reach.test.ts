import { describe, expect, it } from 'vitest';
import type { EnrollmentEntry } from '../data/enrollment-entries';
import type { Entity, Tutor } from '../schemas/records';
import { idsInReach, type ReachSources, reachSources } from './reach';

const entity = {
  entity_id: 'e0',
  roles: [
    { role: 'tutor', id: 't2' },
    { role: 'student', id: 's9' },
    { role: 'tutor', id: 't1' },
  ],
} as Entity;
const tutors = [{ student_ids: ['s3', 's1'] }, { student_ids: ['s1', 's2'] }] as Tutor[];
const entry = (role: EnrollmentEntry['role'], otherId: string, enrollmentId: string): EnrollmentEntry => ({
  role,
  otherId,
  enrollmentId,
});
const sources: ReachSources = {
  entity,
  tutors,
  enrolled: [entry('student', 'c2', 'n1'), entry('teacher', 'c1', 'n2')],
  inCare: [entry('student', 'c3', 'n3'), entry('aide', 'c4', 'n4')],
  taught: [entry('teacher', 'e0', 'n2'), entry('student', 'e7', 'n5')],
  taughtStudents: ['s7'],
  lineItems: {
    all: new Map([['c1', ['l1', 'l2']]]),
    released: new Map([
      ['c2', ['l4']],
      ['c3', ['l3']],
      ['c4', ['l5']],
    ]),
  },
  studentWork: { own: ['r4'], inCare: ['r3'], taught: ['r2', 'r1'] },
  assessmentResults: { own: ['a2'], inCare: ['a3', 'a1'] },
};

describe('the ids a reach gives (issue 3, deliverable 6)', () => {
  it('own: the records of the group its entity names', () => {
    expect(idsInReach('tutors', ['own'], sources)).toEqual(['t1', 't2']);
    expect(idsInReach('students', ['own'], sources)).toEqual(['s9']);
    expect(idsInReach('teachers', ['own'], sources)).toEqual([]);
    expect(idsInReach('entities', ['own'], sources)).toEqual(['e0']);
  });

  it('in-care: the students of the tutor records, once each, in id order', () => {
    expect(idsInReach('students', ['in-care'], sources)).toEqual(['s1', 's2', 's3']);
    expect(idsInReach('students', ['in-care', 'own'], sources)).toEqual(['s1', 's2', 's3', 's9']);
  });

  it('own: the classes and enrollments its entity lists', () => {
    expect(idsInReach('classes', ['own'], sources)).toEqual(['c1', 'c2']);
    expect(idsInReach('enrollments', ['own'], sources)).toEqual(['n1', 'n2']);
  });

  it("in-care: the classes the students in care are students of, and all the students' enrollments", () => {
    expect(idsInReach('classes', ['in-care'], sources)).toEqual(['c3']);
    expect(idsInReach('enrollments', ['in-care'], sources)).toEqual(['n3', 'n4']);
  });

  it('taught: the students and the enrollments of the classes taught', () => {
    expect(idsInReach('students', ['taught'], sources)).toEqual(['s7']);
    expect(idsInReach('enrollments', ['taught'], sources)).toEqual(['n2', 'n5']);
    expect(idsInReach('classes', ['taught'], sources)).toEqual([]);
  });

  it("line items: the released ones of one's own and one's children's classes, all of the classes taught", () => {
    expect(idsInReach('line_items', ['own'], sources)).toEqual(['l4']);
    expect(idsInReach('line_items', ['in-care'], sources)).toEqual(['l3']);
    expect(idsInReach('line_items', ['taught'], sources)).toEqual(['l1', 'l2']);
  });

  it("results: one's own, one's children's and those of the classes taught, as the results' listing gave them", () => {
    expect(idsInReach('results', ['own'], sources)).toEqual(['r4']);
    expect(idsInReach('results', ['in-care', 'taught'], sources)).toEqual(['r1', 'r2', 'r3']);
  });

  it("assessment results: one's own and one's children's, as their listing by student gave them", () => {
    expect(idsInReach('assessment_results', ['own'], sources)).toEqual(['a2']);
    expect(idsInReach('assessment_results', ['in-care'], sources)).toEqual(['a1', 'a3']);
    expect(idsInReach('assessment_results', ['taught'], sources)).toEqual([]);
  });

  it('nothing without a reach', () => {
    expect(idsInReach('students', [], sources)).toEqual([]);
  });
});

describe('what a restricted read consults', () => {
  it('the entity for own, the tutor records for in-care, the classes for taught', () => {
    const partitions = (...groups: string[]) => groups.map((group) => `REC#${group}`);
    expect(reachSources('students')).toEqual(partitions('entities', 'tutors', 'classes'));
    expect(reachSources('classes')).toEqual(partitions('entities', 'tutors', 'students'));
    expect(reachSources('enrollments')).toEqual(partitions('entities', 'tutors', 'students', 'classes'));
    expect(reachSources('line_items')).toEqual([
      ...partitions('entities', 'tutors', 'students'),
      'LIST#line_items',
    ]);
    expect(reachSources('results')).toEqual([
      ...partitions('entities', 'tutors', 'students'),
      'LIST#line_items',
      'LIST#results',
    ]);
    expect(reachSources('attendance')).toEqual([
      ...partitions('entities', 'tutors', 'students'),
      'LIST#attendance',
    ]);
    // A guardian's children are their tutor records' students: no class is read.
    expect(reachSources('assessment_results')).toEqual([
      ...partitions('entities', 'tutors'),
      'LIST#assessment_results',
    ]);
    expect(reachSources('assessment_line_items')).toEqual([]);
    expect(reachSources('courses')).toEqual([]);
    expect(reachSources('tutors')).toEqual(partitions('entities'));
    expect(reachSources('teachers')).toEqual([]);
    expect(reachSources('staffs')).toEqual([]);
    expect(reachSources('entities')).toEqual([]);
  });
});
