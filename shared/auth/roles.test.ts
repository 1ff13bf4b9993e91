import { describe, expect, it } from 'vitest';
import { recordGroups, scopes } from '../domain/groups';
import { rolesOf } from './person';
import { reachOf, scopesOfRoles, writeReachOf } from './roles';

describe('the role table', () => {
  it('gives staff with admin rights every scope, writes included', () => {
    expect(scopesOfRoles(['admin', 'staff'])).toEqual([...scopes]);
  });

  it('lets staff with admin rights read every group whole', () => {
    for (const group of recordGroups) expect(reachOf(['admin'], group), group).toEqual(['all']);
  });

  it('lets teachers read students, teachers, tutors, the rostering groups, the gradebook, attendance and the assessments, and write the gradebook and attendance', () => {
    expect(scopesOfRoles(['teacher'])).toEqual([
      'students:read',
      'teachers:read',
      'tutors:read',
      'academic_sessions:read',
      'courses:read',
      'classes:read',
      'enrollments:read',
      'gradebook:read',
      'attendance:read',
      'assessment:read',
      'gradebook:write',
      'attendance:write',
    ]);
    expect(writeReachOf(['teacher'], 'line_items')).toBe('taught');
    expect(writeReachOf(['teacher'], 'attendance')).toBe('taught');
    expect(writeReachOf(['teacher'], 'categories')).toBeUndefined();
    expect(writeReachOf(['teacher', 'admin'], 'categories')).toBe('all');
    expect(writeReachOf(['student', 'tutor', 'staff'], 'line_items')).toBeUndefined();
  });

  it('lets guardians and students read their own groups, the calendar, their classes and their own sensitive values', () => {
    const calendarAndClasses = [
      'academic_sessions:read',
      'courses:read',
      'classes:read',
      'enrollments:read',
      'gradebook:read',
      'attendance:read',
      'assessment:read',
    ];
    expect(scopesOfRoles(['tutor'])).toEqual([
      'students:read',
      'tutors:read',
      ...calendarAndClasses,
      'students:read:sensitive',
      'tutors:read:sensitive',
    ]);
    expect(scopesOfRoles(['student'])).toEqual([
      'students:read',
      ...calendarAndClasses,
      'students:read:sensitive',
    ]);
    expect(scopesOfRoles([])).toEqual([]);
  });

  it("gives no sensitive values to a role that reads a group whole, even with a guardian's", () => {
    expect(scopesOfRoles(['staff']).filter((s) => s.endsWith(':sensitive'))).toEqual([]);
    expect(scopesOfRoles(['tutor', 'teacher']).filter((s) => s.endsWith(':sensitive'))).toEqual([]);
  });

  it('takes the widest reach of a person with several roles', () => {
    expect(reachOf(['tutor'], 'students')).toEqual(['in-care']);
    expect(reachOf(['tutor', 'student'], 'students')).toEqual(['in-care', 'own']);
    expect(reachOf(['tutor', 'teacher'], 'students')).toEqual(['in-care', 'taught']);
    expect(reachOf(['tutor', 'staff'], 'classes')).toEqual(['all']);
    expect(reachOf(['student'], 'teachers')).toEqual([]);
  });
});

describe('the roles of an account', () => {
  const role = (kind: 'student' | 'teacher' | 'tutor' | 'staff') => ({
    role: kind,
    id: '00000000-0000-4000-8000-000000000000',
  });

  it('come from the kinds of record its entity has', () => {
    expect(rolesOf({ admin: false }, { roles: [role('tutor'), role('teacher'), role('tutor')] })).toEqual([
      'teacher',
      'tutor',
    ]);
  });

  it('add admin only for staff with admin rights', () => {
    expect(rolesOf({ admin: true }, { roles: [role('staff')] })).toEqual(['admin', 'staff']);
    expect(rolesOf({ admin: true }, { roles: [role('teacher')] })).toEqual(['teacher']);
    expect(rolesOf({ admin: false }, { roles: [role('staff')] })).toEqual(['staff']);
  });

  it('are none when the entity is gone', () => {
    expect(rolesOf({ admin: true }, undefined)).toEqual([]);
  });
});
