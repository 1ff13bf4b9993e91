// Sign-in accounts in DynamoDB Local: a username and an e-mail address each belong to one account,
// claimed in the same transaction as the account, and either signs in to it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../infra/local/bootstrap';
import { createDocumentClient } from '../shared/data/document-client';
import { LoginTakenError, type User, UserRepository } from '../shared/data/user-repository';

const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
const tableName = `school-users-${randomUUID().slice(0, 8)}`;
const users = new UserRepository(db, tableName);

const account = (username: string, email?: string): User => ({
  user_id: randomUUID(),
  username,
  ...(email ? { email } : {}),
  password_hash: 'scrypt$32768$8$1$c2FsdA==$a2V5',
  status: 'active',
  entity_id: randomUUID(),
  admin: false,
  created_at: '2026-11-21T09:00:00.000Z',
  updated_at: '2026-11-21T09:00:00.000Z',
});

beforeAll(() => ensureTable(db, tableName, { stream: false }));
afterAll(() => db.destroy());

describe('UserRepository', () => {
  it('finds an account by its username or its e-mail address, in any case and spacing', async () => {
    const ana = account('ana.silva', 'ana.silva@escola.example');
    await users.create(ana);
    expect((await users.byLogin('Ana.Silva'))?.user_id).toBe(ana.user_id);
    expect((await users.byLogin('  ANA.SILVA@escola.example '))?.user_id).toBe(ana.user_id);
    expect(await users.byLogin('ana')).toBeUndefined();
  });

  it('refuses a second account with a taken username or e-mail address, and writes nothing', async () => {
    await users.create(account('rui.costa', 'rui@escola.example'));
    const clash = account('rui.costa.2', 'rui@escola.example');
    await expect(users.create(clash)).rejects.toThrow(
      new LoginTakenError('Already taken: rui@escola.example.'),
    );
    expect(await users.get(clash.user_id)).toBeUndefined();
    expect(await users.byLogin('rui.costa.2')).toBeUndefined();
  });

  it('changes status and password of an existing account only', async () => {
    const joao = account('joao');
    await users.create(joao);
    const changed = await users.update(joao.user_id, { status: 'disabled', password_hash: 'scrypt$new' });
    expect(changed).toMatchObject({ status: 'disabled', password_hash: 'scrypt$new', username: 'joao' });
    expect(changed.updated_at > joao.updated_at).toBe(true);
    await expect(users.update(randomUUID(), { status: 'active' })).rejects.toThrow(/conditional/i);
  });

  it('lists every account', async () => {
    const listed = (await users.list()).map((u) => u.username);
    expect(listed).toEqual(expect.arrayContaining(['ana.silva', 'rui.costa', 'joao']));
  });
});
