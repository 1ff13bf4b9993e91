// The schools a user's roles are at and their agents, from the native links (docs/oneroster.md, "Users").
import { describe, expect, it } from 'vitest';
import { affiliationsOf, type EnrolledIn } from './affiliations';

const schoolOf = (classId: string) => ({ c1: 's1', c2: 's2', c3: 's1' })[classId];
const none = () => [];

describe('affiliationsOf', () => {
  it('puts a student at the schools of the classes they are enrolled in as a student', () => {
    const links = {
      enrollments: [
        { role: 'student', classId: 'c2' },
        { role: 'student', classId: 'c1' },
        { role: 'student', classId: 'c3' },
        { role: 'aide', classId: 'c2' },
      ],
      students: [],
      guardians: ['g2', 'g1'],
    };
    expect(affiliationsOf(['student'], links, schoolOf, none)).toEqual({
      agents: ['g1', 'g2'],
      schools: { student: ['s1', 's2'] },
    });
  });

  it('puts a teacher at the schools they teach, a guardian at their students', () => {
    const enrollments: Record<string, EnrolledIn[]> = { kid: [{ role: 'student', classId: 'c2' }] };
    const links = { enrollments: [{ role: 'teacher', classId: 'c1' }], students: ['kid'], guardians: [] };
    expect(affiliationsOf(['teacher', 'tutor'], links, schoolOf, (id) => enrollments[id] ?? [])).toEqual({
      agents: ['kid'],
      schools: { teacher: ['s1'], tutor: ['s2'] },
    });
  });

  it('leaves staff, and a role without a school, to the root organisation', () => {
    const links = { enrollments: [{ role: 'student', classId: 'gone' }], students: [], guardians: [] };
    expect(affiliationsOf(['staff', 'student'], links, schoolOf, none)).toEqual({ agents: [], schools: {} });
  });
});
