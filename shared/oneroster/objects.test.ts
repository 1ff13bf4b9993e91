// The OneRoster objects made from native records: the sex vocabulary, and the org every user's roles
// name, which must be readable even in a tenant without any organisation.
import { describe, expect, it } from 'vitest';
import { isUuid } from '../domain/identifiers';
import type { Entity } from '../schemas/records';
import { homeOrganisation, ObjectMaker, organisationsOf, sexOf, tenantOrganisation } from './objects';

const stamp = { created_at: '2026-09-01T10:00:00.000Z', updated_at: '2026-09-01T10:00:00.000Z' };
const entity = (entity_id: string, fields: Partial<Entity>): Entity => ({
  entity_id,
  entity_type: 'person',
  name: 'Ana Silva',
  email: 'ana@example.org',
  addresses: [],
  contacts: [],
  documents: [],
  bankAccounts: [],
  roles: [],
  ...stamp,
  ...fields,
});
const person = entity('6f1c1d1e-0000-4000-8000-000000000001', {
  roles: [{ role: 'student', id: '6f1c1d1e-0000-4000-8000-000000000002' }],
});

describe('sexOf', () => {
  it.each([
    ['Male', 'male'],
    [' female ', 'female'],
    ['Feminino', 'female'],
    ['M', 'male'],
    ['', 'unspecified'],
    ['Unknown', 'unspecified'],
    ['Non-binary', 'other'],
    ['Outro', 'other'],
  ])('maps %j to %s', (gender, sex) => {
    expect(sexOf(gender)).toBe(sex);
  });
});

describe('the org of the roles', () => {
  it('is the root organisation when the tenant has one', () => {
    const district = entity('6f1c1d1e-0000-4000-8000-00000000000a', {
      entity_type: 'organisation',
      org_type: 'district',
      parent_id: null,
    });
    expect(homeOrganisation([person, district], 'demo')).toBe(district);
    expect(organisationsOf([person, district], 'demo')).toEqual([district]);
  });

  it("is the tenant's own organisation, listed and stable, when the tenant has none", () => {
    const own = tenantOrganisation('demo');
    expect(isUuid(own.entity_id)).toBe(true);
    expect(own.entity_id[14]).toBe('5');
    expect(tenantOrganisation('demo')).toEqual(own);
    expect(tenantOrganisation('other').entity_id).not.toBe(own.entity_id);
    const home = homeOrganisation([person], 'demo');
    const user = new ObjectMaker('https://x.test', home.entity_id).user(person, false);
    const listed = organisationsOf([person], 'demo').map((o) => o.entity_id);
    for (const ref of [user.primaryOrg, ...user.roles.map((r) => r.org)]) {
      expect(listed).toContain(ref.sourcedId);
    }
    expect(user.enabledUser).toBe('false');
  });
});
