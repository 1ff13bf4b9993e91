import { describe, expect, it } from 'vitest';
import { linksOf } from './record-links';

describe('what a record puts on the records it names', () => {
  it('a tutor: itself in each of its students’ tutors', () => {
    expect(linksOf('tutors', 't1', { tutor_id: 't1', student_ids: ['s1', 's2'] })).toEqual([
      { group: 'students', id: 's1', attribute: '_tutors', entry: 't1' },
      { group: 'students', id: 's2', attribute: '_tutors', entry: 't1' },
    ]);
  });

  it('a class: a count on its course, school and each term; none for a reference left empty', () => {
    expect(linksOf('classes', 'c1', { course_id: 'k1', school_id: 'o1', term_ids: ['a1', 'a2'] })).toEqual([
      { group: 'courses', id: 'k1', attribute: '_refs' },
      { group: 'entities', id: 'o1', attribute: '_refs' },
      { group: 'academic_sessions', id: 'a1', attribute: '_refs' },
      { group: 'academic_sessions', id: 'a2', attribute: '_refs' },
    ]);
    expect(linksOf('courses', 'k1', { org_id: null })).toEqual([]);
  });

  it('an enrollment: an entry on its class and on its person', () => {
    const enrollment = { enrollment_id: 'e1', class_id: 'c1', entity_id: 'p1', role: 'student' };
    expect(linksOf('enrollments', 'e1', enrollment)).toEqual([
      { group: 'classes', id: 'c1', attribute: '_enrollments', entry: 'student#p1#e1' },
      { group: 'entities', id: 'p1', attribute: '_enrollments', entry: 'student#c1#e1' },
    ]);
  });
});
