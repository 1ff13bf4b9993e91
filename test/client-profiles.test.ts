// Field profiles (issue "client governance", part 3): a client registered with a profile reads only the
// fields it names, on list, get and changes, native and OneRoster; `fields=` cannot bring the others back,
// a filter on one is refused, a write that sets one is refused with 400 and a replace keeps them as they
// are; the two ready profiles; a profile that names what is not there is refused at registration; and a
// changed profile applies at once here (the service re-reads its clients on every request).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personBody } from './support/fixtures';
import { registeredClient } from './support/oauth';
import { createRecord, startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ revocationRefreshSeconds: 0 });
});
afterAll(() => api.stop());

const oneRosterCore = 'https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly';
const oneRosterDemographics = 'https://purl.imsglobal.org/spec/or/v1p2/scope/roster-demographics.readonly';
const oneRoster = '/ims/oneroster/rostering/v1p2';

async function clientWith(
  profile: unknown,
  scopes: string[] = ['students:read', oneRosterCore, oneRosterDemographics],
) {
  const { client, token } = await registeredClient(api, { name: 'Profiled', scopes, profile });
  return { clientId: client.client_id, token };
}

const body = async (response: Response) => {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

const hiddenByRosterBasic = [
  'photobase64',
  'documents',
  'bankAccounts',
  'addresses',
  'contacts',
  'naturality',
];

describe('the roster-basic profile', () => {
  it('reads names, ids and e-mail of students on list, get and changes, and nothing else', async () => {
    const { token } = await clientWith('roster-basic');
    const list = (await body(await api.get('/api/students?items_per_page=3', { token }))).students as Record<
      string,
      unknown
    >[];
    expect(list).toHaveLength(3);
    for (const student of list) {
      expect(Object.keys(student)).toEqual(
        expect.arrayContaining(['student_id', 'entity_id', 'name', 'email', 'processnumber']),
      );
      for (const field of hiddenByRosterBasic) expect(student).not.toHaveProperty(field);
    }
    const id = list[0]?.student_id as string;
    const one = await body(await api.get(`/api/students/${id}`, { token }));
    for (const field of hiddenByRosterBasic) expect(one).not.toHaveProperty(field);
    // `fields=` selects among what the profile reads: it cannot bring a field back.
    const selected = await body(
      await api.get(`/api/students/${id}?fields=name,photobase64,documents`, { token }),
    );
    expect(Object.keys(selected).sort()).toEqual(['name', 'student_id']);
    const changes = (await body(await api.get('/api/students?updated_since=2000-01-01T00:00:00Z', { token })))
      .students as Record<string, unknown>[];
    expect(changes.length).toBeGreaterThan(0);
    for (const student of changes)
      for (const field of hiddenByRosterBasic) expect(student).not.toHaveProperty(field);
  });

  it('reads OneRoster users whole and demographics without their optional fields, which no filter names', async () => {
    const { token } = await clientWith('roster-basic');
    const users = (await body(await api.get(`${oneRoster}/users?limit=2`, { token }))).users as Record<
      string,
      unknown
    >[];
    expect(users[0]).toHaveProperty('email');
    const demographics = (await body(await api.get(`${oneRoster}/demographics?limit=3`, { token })))
      .demographics as Record<string, unknown>[];
    expect(demographics.length).toBeGreaterThan(0);
    for (const object of demographics)
      expect(Object.keys(object).sort()).toEqual(['dateLastModified', 'sourcedId', 'status']);
    const id = demographics[0]?.sourcedId as string;
    const one = await body(await api.get(`${oneRoster}/demographics/${id}?fields=birthDate,sex`, { token }));
    expect(Object.keys(one.demographics as object).sort()).toEqual([
      'dateLastModified',
      'sourcedId',
      'status',
    ]);
    const filtered = await api.get(`${oneRoster}/demographics?filter=${encodeURIComponent("sex='female'")}`, {
      token,
    });
    expect(filtered.status).toBe(400);
    expect(await filtered.json()).toMatchObject({ imsx_codeMajor: 'failure' });
    const sorted = await api.get(`${oneRoster}/demographics?sort=birthDate`, { token });
    expect(sorted.status).toBe(400);
    await sorted.body?.cancel();
  });

  it('and transport adds where people live', async () => {
    const { token } = await clientWith('transport');
    const [student] = (await body(await api.get('/api/students?items_per_page=1', { token })))
      .students as Record<string, unknown>[];
    expect(student).toHaveProperty('addresses');
    expect(student).not.toHaveProperty('photobase64');
  });
});

describe("a client's own profile", () => {
  it('refuses a filter on a field it does not read', async () => {
    const { token } = await clientWith({ records: { students: { exclude: ['email'] } } });
    const refused = await api.get('/api/students?email=someone@example.org', { token });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      errors: [expect.objectContaining({ name: 'email', in: 'query' })],
    });
    const [student] = (await body(await api.get('/api/students?items_per_page=1', { token })))
      .students as object[];
    expect(student).not.toHaveProperty('email');
    expect(student).toHaveProperty('photobase64');
  });

  it('refuses a write that sets a field it does not read, and a replace keeps those fields as they are', async () => {
    const photo = Buffer.from('a small photo').toString('base64');
    const stored = await createRecord(api, 'students', { ...personBody('P'), photobase64: photo });
    const id = stored.student_id as string;
    const { token } = await clientWith({ records: { students: { exclude: ['photobase64', 'documents'] } } }, [
      'students:read',
      'students:write',
    ]);
    const created = await api.send('POST', '/api/students', { ...personBody('P'), documents: [] }, { token });
    expect(created.status).toBe(400);
    const problem = (await created.json()) as { errors: { name: string }[] };
    expect(problem.errors.map((e) => e.name).sort()).toEqual(['documents', 'photobase64']);

    const asRead = await body(await api.get(`/api/students/${id}`, { token }));
    const { student_id: _id, entity_id: _entity, created_at: _c, updated_at: _u, ...replacement } = asRead;
    const replaced = await api.send(
      'PUT',
      `/api/students/${id}`,
      { ...replacement, name: 'Renamed Student' },
      { token },
    );
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    expect(await replaced.json()).not.toHaveProperty('photobase64');
    const whole = await body(await api.get(`/api/students/${id}`));
    expect(whole).toMatchObject({ name: 'Renamed Student', photobase64: photo, documents: stored.documents });

    const document = await api.send(
      'POST',
      `/api/students/${id}/documents`,
      { identification_document_value: '123456789', identification_document_type_name: 'Passport' },
      { token },
    );
    expect(document.status).toBe(400);
    await document.body?.cancel();
  });

  it('applies a changed profile at once, and none reads the whole record again', async () => {
    const { clientId, token } = await clientWith('roster-basic');
    const replaced = await api.send('PUT', `/api/admin/clients/${clientId}`, {
      name: 'Profiled',
      scopes: ['students:read'],
    });
    expect(replaced.status).toBe(200);
    const [student] = (await body(await api.get('/api/students?items_per_page=1', { token })))
      .students as object[];
    expect(student).toHaveProperty('photobase64');
  });

  it.each([
    [{ records: { pupils: { include: ['name'] } } }, 'profile.records.pupils'],
    [{ records: { students: { include: ['nom'] } } }, 'profile.records.students.include[0]'],
    [{ records: { students: { exclude: ['student_id'] } } }, 'profile.records.students.exclude[0]'],
    [{ oneroster: { users: { exclude: ['givenName'] } } }, 'profile.oneroster.users.exclude[0]'],
    [{ records: { students: { include: ['name'], exclude: ['email'] } } }, 'profile'],
    ['roster-everything', 'profile'],
  ])('refuses the profile %j at registration, naming %s', async (profile, field) => {
    const response = await api.send('POST', '/api/admin/clients', {
      name: 'X',
      scopes: ['students:read'],
      profile,
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { name: string }[] };
    expect(problem.errors.map((e) => e.name)).toContain(field);
  });
});
