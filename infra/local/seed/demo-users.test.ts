import { describe, expect, it } from 'vitest';
import { rolesOf } from '../../../shared/auth/person';
import type { Entity, Tutor } from '../../../shared/schemas/records';
import { demoTenant } from './demo-tenant';
import { demoUsers } from './demo-users';

const records = demoTenant();
const entities = new Map(
  records
    .filter((r) => r.group === 'entities')
    .map((r) => [(r.record as Entity).entity_id, r.record as Entity]),
);
const users = demoUsers(records);
const rolesOfUser = (username: string) => {
  const user = users.find((u) => u.username === username);
  if (!user) throw new Error(`no ${username}`);
  return rolesOf(user, entities.get(user.entity_id));
};
const studentsInCare = (username: string) => {
  const entityId = users.find((u) => u.username === username)?.entity_id;
  return records
    .filter((r) => r.group === 'tutors' && (r.record as Tutor).entity_id === entityId)
    .flatMap((r) => (r.record as Tutor).student_ids);
};

describe('the demo accounts', () => {
  it('cover one person of each kind, each with only that role', () => {
    expect(Object.fromEntries(users.map((u) => [u.username, rolesOfUser(u.username)]))).toEqual({
      admin: ['admin', 'staff'],
      teacher: ['teacher'],
      guardian: ['tutor'],
      guardian2: ['tutor'],
      student: ['student'],
      staff: ['staff'],
    });
  });

  it('give two guardians of different families, each with children in care', () => {
    const first = studentsInCare('guardian');
    const second = studentsInCare('guardian2');
    expect(first.length).toBeGreaterThanOrEqual(2);
    expect(second.length).toBeGreaterThanOrEqual(2);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
  });

  it('are the same on every run', () => {
    expect(demoUsers(demoTenant())).toEqual(users);
  });
});
