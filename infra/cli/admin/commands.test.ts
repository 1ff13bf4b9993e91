// The admin CLI's argument parsing and checks, without a table: every command reads into a checked
// Command, help is found at every level, and each kind of mistake is one UsageError naming it.
import { describe, expect, it } from 'vitest';
import { type Command, parseCommand } from './commands';
import { UsageError } from './usage-error';
import { parsePassword, parseRedirectUri } from './validation';

const command = (...argv: string[]): Command => {
  const parsed = parseCommand(argv);
  if (!('command' in parsed)) throw new Error(`expected a command, got help for ${argv.join(' ')}`);
  return parsed.command;
};

const refusal = (...argv: string[]): string => {
  try {
    parseCommand(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

const ENTITY = '6f1c2a34-8b9d-4e0f-a1b2-c3d4e5f60718';

describe('help', () => {
  it.each([[[]], [['--help']], [['-h']]])('lists the nouns for %j', (argv) => {
    const parsed = parseCommand(argv);
    expect('help' in parsed && parsed.help).toMatch(/clients[\s\S]*users[\s\S]*keys/);
  });

  it('lists the verbs of a noun and the options of a verb', () => {
    const users = parseCommand(['users', '--help']);
    expect('help' in users && users.help).toMatch(/create[\s\S]*unlock[\s\S]*set-password/);
    const create = parseCommand(['clients', 'create', '--help']);
    expect('help' in create && create.help).toContain(
      'usage: npm run admin -- clients create --name <name> --scopes "<scope> ..."',
    );
    expect('help' in create && create.help).toContain('--redirect-uri <uri>');
    const retire = parseCommand(['keys', 'retire', '-h']);
    expect('help' in retire && retire.help).toContain('keys retire <kid> [--force]');
  });
});

describe('clients create', () => {
  it('defaults a confidential client to client_credentials', () => {
    expect(
      command('clients', 'create', '--name', 'Reports', '--scopes', 'students:read  teachers:read'),
    ).toEqual({
      noun: 'clients',
      verb: 'create',
      registration: {
        name: 'Reports',
        scopes: ['students:read', 'teachers:read'],
        grantTypes: ['client_credentials'],
        redirectUris: [],
        postLogoutRedirectUris: [],
        isPublic: false,
      },
      governance: {},
    });
  });

  it('takes grant types and repeated redirect URIs, and defaults a public client to the code flow', () => {
    const portal = command(
      'clients',
      'create',
      '--name=Portal',
      '--scopes',
      'students:read',
      '--grant-types',
      'client_credentials,authorization_code refresh_token',
      '--redirect-uri',
      'https://portal.example.org/callback',
      '--redirect-uri',
      'http://127.0.0.1:8976/callback',
    );
    expect(portal).toMatchObject({
      registration: {
        grantTypes: ['client_credentials', 'authorization_code', 'refresh_token'],
        redirectUris: ['https://portal.example.org/callback', 'http://127.0.0.1:8976/callback'],
      },
    });
    const app = command(
      'clients',
      'create',
      '--name',
      'Phone app',
      '--scopes',
      'students:read',
      '--public',
      '--redirect-uri',
      'http://[::1]/cb',
    );
    expect(app).toMatchObject({
      registration: { isPublic: true, grantTypes: ['authorization_code', 'refresh_token'] },
    });
  });

  it('reads a rate limit and a ready profile, and neither when not given', () => {
    expect(
      command(
        'clients',
        'create',
        '--name',
        'x',
        '--scopes',
        'students:read',
        '--rate-limit',
        '300',
        '--profile',
        'transport',
      ),
    ).toMatchObject({ governance: { rateLimit: 300, profile: 'transport' } });
    const school = '9f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
    const other = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    expect(
      command(
        'clients',
        'create',
        '--name',
        'x',
        '--scopes',
        'students:read',
        '--schools',
        `${school} ${other}`,
      ),
    ).toMatchObject({ governance: { schools: [school, other] } });
    expect(command('clients', 'create', '--name', 'x', '--scopes', 'students:read')).toMatchObject({
      governance: {},
    });
  });

  it.each([
    [['--scopes', 'students:read'], /--name is required/],
    [['--name', 'x'], /--scopes is required/],
    [['--name', 'x', '--scopes', 'students:read bogus:read'], /unknown scope bogus:read/],
    [['--name', 'x', '--scopes', ' '], /names no scope/],
    [
      ['--name', 'x', '--scopes', 'students:read', '--grant-types', 'password'],
      /unknown grant type password/,
    ],
    [
      ['--name', 'x', '--scopes', 'students:read', '--public', '--grant-types', 'client_credentials'],
      /public/,
    ],
    [
      ['--name', 'x', '--scopes', 'students:read', '--grant-types', 'authorization_code'],
      /needs at least one/,
    ],
    [
      ['--name', 'x', '--scopes', 'students:read', '--redirect-uri', 'https://a.example/cb'],
      /authorization_code/,
    ],
    [
      ['--name', 'x', '--scopes', 'students:read', '--grant-types', 'client_credentials refresh_token'],
      /refresh tokens come from/,
    ],
    [['--name', '', '--scopes', 'students:read'], /--name needs a value/],
    [['--name', 'a', '--name', 'b', '--scopes', 'students:read'], /--name is given more than once/],
    [['--name', '--public', '--scopes', 'students:read'], /--name' argument is ambiguous/],
    [['--name', 'x', '--scopes', 'students:read', '--public=yes'], /does not take an argument/],
    [['--name', 'x', '--scopes', 'students:read', '--secret', 's'], /Unknown option '--secret'/],
    [['--name', 'x', '--scopes', 'students:read', '--rate-limit', '0'], /not a whole number/],
    [['--name', 'x', '--scopes', 'students:read', '--rate-limit', '1.5'], /not a whole number/],
    [['--name', 'x', '--scopes', 'students:read', '--rate-limit', '600001'], /from 1 to 600000/],
    [['--name', 'x', '--scopes', 'students:read', '--profile', 'everything'], /not a ready profile/],
    [['--name', 'x', '--scopes', 'students:read', '--schools', ' '], /names no school/],
    [['--name', 'x', '--scopes', 'students:read', '--schools', 'escola-norte'], /not an organisation id/],
    [['extra', '--name', 'x', '--scopes', 'students:read'], /unexpected argument extra/],
  ])('refuses %j', (args, message) => {
    expect(refusal('clients', 'create', ...args)).toMatch(message);
  });
});

describe('redirect URIs (RFC 6749 3.1.2, RFC 8252 7.3)', () => {
  it.each([
    'https://portal.example.org/callback',
    'https://portal.example.org/callback?tenant=norte',
    'http://127.0.0.1:8976/callback',
    'http://localhost/callback',
    'http://[::1]:8080/',
  ])('accepts %s as given', (uri) => {
    expect(parseRedirectUri(uri)).toBe(uri);
  });

  it.each([
    ['/callback', /not an absolute URI/],
    ['portal.example.org/callback', /not an absolute URI/],
    ['http://portal.example.org/callback', /https, or http on the loopback/],
    ['http://127.0.0.2.example.org/cb', /https, or http on the loopback/],
    ['com.example.app:/callback', /https, or http on the loopback/],
    ['javascript:alert(1)', /https, or http on the loopback/],
    ['https://portal.example.org/callback#done', /fragment/],
    ['https://portal.example.org/callback#', /fragment/],
    ['https://user:pass@portal.example.org/callback', /user information/],
  ])('refuses %s', (uri, message) => {
    expect(() => parseRedirectUri(uri)).toThrow(message);
  });
});

describe('users', () => {
  it('reads create with a lower-cased username and e-mail address', () => {
    expect(
      command(
        'users',
        'create',
        '--username',
        'M.Silva',
        '--entity',
        ENTITY,
        '--email',
        'M.Silva@Escola.PT',
        '--admin',
      ),
    ).toEqual({
      noun: 'users',
      verb: 'create',
      account: { username: 'm.silva', email: 'm.silva@escola.pt', entityId: ENTITY, admin: true },
      passwordStdin: false,
    });
    expect(
      command('users', 'create', '--username', 'ana', '--entity', ENTITY, '--password-stdin'),
    ).toMatchObject({
      account: { email: undefined, admin: false },
      passwordStdin: true,
    });
  });

  it.each([
    [['create', '--entity', ENTITY], /--username is required/],
    [['create', '--username', 'ana'], /--entity is required/],
    [['create', '--username', 'ana', '--entity', 'not-a-uuid'], /entity not-a-uuid is not a UUID/],
    [['create', '--username', 'ana@escola.pt', '--entity', ENTITY], /e-mail addresses go in --email/],
    [['create', '--username', 'ana silva', '--entity', ENTITY], /username/],
    [['create', '--username', 'ana', '--entity', ENTITY, '--email', 'ana'], /not an e-mail address/],
    [['create', '--username', 'ana', '--entity', ENTITY, '--password', 'hunter2hunter2'], /Unknown option/],
    [['disable'], /needs <username>/],
    [['unlock', 'ana', 'bea'], /unexpected argument bea/],
    [['enable', ''], /<username> is empty/],
    [['set-password', 'ana', '--password', 'x'], /Unknown option/],
    [['delete', 'ana'], /unknown users verb delete/],
  ])('refuses %j', (args, message) => {
    expect(refusal('users', ...args)).toMatch(message);
  });

  it('never takes a password from the arguments', () => {
    expect(command('users', 'set-password', 'ana', '--password-stdin')).toEqual({
      noun: 'users',
      verb: 'set-password',
      username: 'ana',
      passwordStdin: true,
    });
  });
});

describe('passwords from standard input', () => {
  it('drops the one line break a pipe adds, and keeps the rest as typed', () => {
    expect(parsePassword('correct horse battery\n')).toBe('correct horse battery');
    expect(parsePassword('correct horse battery\r\n')).toBe('correct horse battery');
    expect(parsePassword(' spaces count too ')).toBe(' spaces count too ');
  });

  it.each([
    ['short\n', /at least 12/],
    ['', /at least 12/],
    ['éééééééééé\n', /at least 12/],
    ['first line\nsecond line\n', /one line/],
    ['x'.repeat(1025), /at most 1024/],
  ])('refuses %j', (input, message) => {
    expect(() => parsePassword(input)).toThrow(message);
  });
});

describe('keys and the rest', () => {
  it('reads the key commands', () => {
    expect(command('keys', 'rotate')).toEqual({ noun: 'keys', verb: 'rotate' });
    expect(command('keys', 'retire', 'abc', '--force')).toEqual({
      noun: 'keys',
      verb: 'retire',
      kid: 'abc',
      force: true,
    });
    expect(command('keys', 'list', '--json')).toEqual({ noun: 'keys', verb: 'list', json: true });
  });

  it('takes a key id that starts with a dash as the id, not as options (base64url ids may)', () => {
    expect(command('keys', 'retire', '-mK3-x_Q', '--force')).toEqual({
      noun: 'keys',
      verb: 'retire',
      kid: '-mK3-x_Q',
      force: true,
    });
    expect(command('keys', 'retire', '--force', '-m')).toMatchObject({ kid: '-m', force: true });
  });

  it.each([
    [['tokens', 'list'], /unknown command tokens; the commands are clients, users, keys/],
    [['keys'], /keys needs a verb: list, rotate, retire/],
    [['keys', 'delete'], /unknown keys verb delete/],
    [['keys', 'rotate', 'now'], /unexpected argument now/],
    [['keys', 'retire'], /needs <kid>/],
    [['clients', 'revoke'], /needs <client_id>/],
    [['constructor', 'list'], /unknown command constructor/],
    [['clients', 'toString'], /unknown clients verb toString/],
  ])('refuses %j', (argv, message) => {
    expect(refusal(...argv)).toMatch(message);
  });
});
