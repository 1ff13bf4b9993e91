import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  describesRole,
  type GroupDescription,
  groups,
  isNumberedGroup,
  isRoleGroup,
  type RoleGroup,
  type RoleGroupIn,
  recordGroups,
  roleGroups,
  roleNames,
  roleNamesInWords,
} from './groups';

/** A rostering group as the next groups will be: records about something other than a person. */
const classes = {
  idField: 'class_id',
  role: undefined,
  processnumber: false,
  documents: false,
  links: undefined,
  references: [],
  noun: 'class',
  plural: 'classes',
} as const satisfies GroupDescription;

const withClasses = { ...groups, classes } as const satisfies Record<string, GroupDescription>;

describe('a group that is no person role', () => {
  it('is not taken for one: roles are what a description names, not every group but entities', () => {
    expect(describesRole(classes)).toBe(false);
    expect(
      Object.keys(withClasses).filter((g) => describesRole(withClasses[g as keyof typeof withClasses])),
    ).toEqual([...roleGroups]);
  });

  it('is no role group in the types either', () => {
    expectTypeOf<RoleGroupIn<typeof withClasses>>().toEqualTypeOf<RoleGroup>();
    expectTypeOf<RoleGroupIn<{ classes: typeof classes }>>().toBeNever();
  });
});

describe('the groups served today', () => {
  it('are an entity group and four person roles, each with a processnumber', () => {
    expect(recordGroups.filter(isRoleGroup)).toEqual(['students', 'teachers', 'tutors', 'staffs']);
    expect(isRoleGroup('entities')).toBe(false);
    expect(roleNames).toEqual(['student', 'teacher', 'tutor', 'staff']);
    expect(roleNamesInWords).toBe('student, teacher, tutor or staff');
    expect(recordGroups.filter(isNumberedGroup)).toEqual([...roleGroups]);
  });

  it('each have an id field of their own', () => {
    const idFields = recordGroups.map((group) => groups[group].idField);
    expect(new Set(idFields).size).toBe(recordGroups.length);
  });
});
