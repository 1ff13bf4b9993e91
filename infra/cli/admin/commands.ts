// The admin CLI's commands, `<noun> <verb> [arguments] [options]`, and their help. Parsing is pure: it
// turns the argument list into a checked Command (or a help text) and touches no table, so a bad
// argument is refused before anything changes.
import { parseArgs } from 'node:util';
import { type ReadyProfileName, readyProfileNames } from '../../../shared/clients/profiles';
import { type ClientRegistration, defaultGrantTypes } from '../../../shared/clients/registration';
import { LIMITS } from '../../../shared/domain/limits';
import { UsageError } from './usage-error';
import {
  checkRegistration,
  parseEmail,
  parseGrantTypes,
  parseProfileName,
  parseRateLimit,
  parseRedirectUri,
  parseSchools,
  parseScopes,
  parseSince,
  parseUsername,
  parseUuid,
} from './validation';

export type Command =
  | {
      noun: 'clients';
      verb: 'create';
      registration: ClientRegistration;
      governance: { rateLimit?: number; profile?: ReadyProfileName; schools?: string[] };
    }
  | { noun: 'clients'; verb: 'list'; json: boolean }
  | { noun: 'clients'; verb: 'revoke'; clientId: string }
  | { noun: 'clients'; verb: 'set-logout-uris'; clientId: string; uris: string[] }
  | {
      noun: 'users';
      verb: 'create';
      account: { username: string; email: string | undefined; entityId: string; admin: boolean };
      passwordStdin: boolean;
    }
  | { noun: 'users'; verb: 'list'; json: boolean }
  | {
      noun: 'users';
      verb: 'disable' | 'enable' | 'unlock' | 'sign-out' | 'totp-enroll' | 'totp-reset';
      username: string;
    }
  | { noun: 'users'; verb: 'set-password'; username: string; passwordStdin: boolean }
  | { noun: 'keys'; verb: 'list'; json: boolean }
  | { noun: 'keys'; verb: 'rotate' }
  | { noun: 'keys'; verb: 'retire'; kid: string; force: boolean }
  | { noun: 'audit'; verb: 'person'; entityId: string; since: string | undefined; json: boolean }
  | { noun: 'people'; verb: 'export'; entityId: string; out: string | undefined }
  | { noun: 'people'; verb: 'erase'; entityId: string; force: boolean }
  | { noun: 'records'; verb: 'list-again' | 'tally-again' };

export type Parsed = { help: string } | { command: Command };

export const PROGRAM = 'npm run admin --';

type Values = Record<string, string | boolean | string[] | undefined>;

interface Option {
  type: 'string' | 'boolean';
  /** How the value reads in the help: `<name>`, `"<scope> ..."`. */
  value?: string;
  multiple?: boolean;
  required?: boolean;
  help: string;
}

interface Verb {
  summary: string;
  /** Positional arguments, by name, all required. */
  args: string[];
  options: Record<string, Option>;
  /** What the command does beyond its summary: what it prints, what it refuses. */
  details?: string;
  build(args: string[], values: Values): Command;
}

const json: Record<string, Option> = {
  json: { type: 'boolean', help: 'print JSON instead of a table' },
};
const passwordStdin: Option = {
  type: 'boolean',
  help: 'read the password from standard input (one line); otherwise a strong one is generated and shown once',
};

const postLogoutRedirectUri: Option = {
  type: 'string',
  value: '<uri>',
  multiple: true,
  help: 'where logout (OpenID Connect RP-Initiated Logout) may send a person afterwards (repeatable); the same rules as --redirect-uri',
};
const logoutUris = (values: Values) =>
  ((values['post-logout-redirect-uri'] as string[] | undefined) ?? []).map(parseRedirectUri);

const str = (values: Values, name: string) => values[name] as string | undefined;
const bool = (values: Values, name: string) => values[name] === true;

const nouns: Record<string, { summary: string; verbs: Record<string, Verb> }> = {
  clients: {
    summary: 'OAuth clients: services and apps that ask for tokens',
    verbs: {
      create: {
        summary: 'register a client and print its id and secret once',
        args: [],
        options: {
          name: { type: 'string', value: '<name>', required: true, help: 'what the client is, for people' },
          scopes: {
            type: 'string',
            value: '"<scope> ..."',
            required: true,
            help: 'the scopes it may ask for, e.g. "students:read teachers:read"',
          },
          'grant-types': {
            type: 'string',
            value: '"<grant> ..."',
            help: 'client_credentials, authorization_code, refresh_token (default: client_credentials, or authorization_code refresh_token with --public)',
          },
          'redirect-uri': {
            type: 'string',
            value: '<uri>',
            multiple: true,
            help: 'where the code flow may send a person back (repeatable): https, or http on 127.0.0.1, [::1] or localhost; no fragment',
          },
          'post-logout-redirect-uri': postLogoutRedirectUri,
          public: { type: 'boolean', help: 'a public client (phone or browser app): no secret, PKCE only' },
          'rate-limit': {
            type: 'string',
            value: '<requests a minute>',
            help: `its rate limit (default ${LIMITS.clientRequestsPerMinute})`,
          },
          profile: {
            type: 'string',
            value: '<profile>',
            help: `the fields it may read: ${readyProfileNames.join(' or ')} (default: every field)`,
          },
          schools: {
            type: 'string',
            value: '"<org id> ..."',
            help: 'the schools (organisation ids) whose records alone it reads and writes (default: every school)',
          },
        },
        details:
          'Only a hash of the secret is kept: copy it from the output, which is the one time it is shown.',
        build: (_args, values) => {
          const isPublic = bool(values, 'public');
          const grants = str(values, 'grant-types');
          return {
            noun: 'clients',
            verb: 'create',
            registration: checkRegistration({
              name: str(values, 'name') ?? '',
              scopes: parseScopes(str(values, 'scopes') ?? ''),
              grantTypes: grants === undefined ? defaultGrantTypes(isPublic) : parseGrantTypes(grants),
              redirectUris: ((values['redirect-uri'] as string[] | undefined) ?? []).map(parseRedirectUri),
              postLogoutRedirectUris: logoutUris(values),
              isPublic,
            }),
            governance: {
              ...(str(values, 'rate-limit') === undefined
                ? {}
                : { rateLimit: parseRateLimit(str(values, 'rate-limit') as string) }),
              ...(str(values, 'profile') === undefined
                ? {}
                : { profile: parseProfileName(str(values, 'profile') as string) }),
              ...(str(values, 'schools') === undefined
                ? {}
                : { schools: parseSchools(str(values, 'schools') as string) }),
            },
          };
        },
      },
      list: {
        summary: 'list the clients (never their secrets)',
        args: [],
        options: json,
        build: (_args, values) => ({ noun: 'clients', verb: 'list', json: bool(values, 'json') }),
      },
      revoke: {
        summary: 'stop a client from getting tokens',
        args: ['client_id'],
        options: {},
        details: 'Every route refuses the access tokens it already holds within a minute.',
        build: ([clientId]) => ({ noun: 'clients', verb: 'revoke', clientId: clientId as string }),
      },
      'set-logout-uris': {
        summary: "replace a code-flow client's post_logout_redirect_uris",
        args: ['client_id'],
        options: { 'post-logout-redirect-uri': postLogoutRedirectUri },
        details: 'Without --post-logout-redirect-uri, logout sends nobody back to the client.',
        build: ([clientId], values) => ({
          noun: 'clients',
          verb: 'set-logout-uris',
          clientId: clientId as string,
          uris: logoutUris(values),
        }),
      },
    },
  },
  users: {
    summary: "people's sign-in accounts",
    verbs: {
      create: {
        summary: 'create an account for a person entity',
        args: [],
        options: {
          username: {
            type: 'string',
            value: '<username>',
            required: true,
            help: 'what the person signs in with',
          },
          entity: {
            type: 'string',
            value: '<entity_id>',
            required: true,
            help: 'the person entity it belongs to',
          },
          email: {
            type: 'string',
            value: '<email>',
            help: 'an e-mail address the person may also sign in with',
          },
          admin: {
            type: 'boolean',
            help: 'admin rights (every scope); only for a person with a staff record',
          },
          'password-stdin': passwordStdin,
        },
        build: (_args, values) => {
          const email = str(values, 'email');
          return {
            noun: 'users',
            verb: 'create',
            account: {
              username: parseUsername(str(values, 'username') ?? ''),
              email: email === undefined ? undefined : parseEmail(email),
              entityId: parseUuid(str(values, 'entity') ?? '', 'entity'),
              admin: bool(values, 'admin'),
            },
            passwordStdin: bool(values, 'password-stdin'),
          };
        },
      },
      list: {
        summary: 'list the accounts (never their passwords)',
        args: [],
        options: json,
        build: (_args, values) => ({ noun: 'users', verb: 'list', json: bool(values, 'json') }),
      },
      disable: {
        summary: 'stop an account from signing in or refreshing its tokens',
        args: ['username'],
        options: {},
        build: ([name]) => ({ noun: 'users', verb: 'disable', username: name as string }),
      },
      enable: {
        summary: 'let a disabled account sign in again',
        args: ['username'],
        options: {},
        build: ([name]) => ({ noun: 'users', verb: 'enable', username: name as string }),
      },
      unlock: {
        summary: 'make an account active and forget its failed sign-ins, ending a lockout',
        args: ['username'],
        options: {},
        build: ([name]) => ({ noun: 'users', verb: 'unlock', username: name as string }),
      },
      'sign-out': {
        summary: 'end every sign-on session and refresh token of an account, on every device',
        args: ['username'],
        options: {},
        details:
          'Its access tokens live on until they expire (ACCESS_TOKEN_TTL_SECONDS); userinfo refuses them at once.',
        build: ([name]) => ({ noun: 'users', verb: 'sign-out', username: name as string }),
      },
      'totp-enroll': {
        summary: 'give an account a TOTP second factor and print its otpauth:// URI once',
        args: ['username'],
        options: {},
        details:
          'Load the URI into an authenticator app (as text or a QR code); from then on the account gives a code after its password. Refused while one is enrolled.',
        build: ([name]) => ({ noun: 'users', verb: 'totp-enroll', username: name as string }),
      },
      'totp-reset': {
        summary: "remove an account's TOTP second factor (a lost phone); enrol it again after",
        args: ['username'],
        options: {},
        build: ([name]) => ({ noun: 'users', verb: 'totp-reset', username: name as string }),
      },
      'set-password': {
        summary: "set an account's password",
        args: ['username'],
        options: { 'password-stdin': passwordStdin },
        build: ([name], values) => ({
          noun: 'users',
          verb: 'set-password',
          username: name as string,
          passwordStdin: bool(values, 'password-stdin'),
        }),
      },
    },
  },
  keys: {
    summary: 'the token signing keys',
    verbs: {
      list: {
        summary: 'list the published keys, which one signs, and when each may be retired',
        args: [],
        options: json,
        build: (_args, values) => ({ noun: 'keys', verb: 'list', json: bool(values, 'json') }),
      },
      rotate: {
        summary: 'publish a new key pair; new tokens are signed with it, older keys keep verifying',
        args: [],
        options: {},
        details:
          'A deployed tenant (SIGNING_KEY_SECRET_ARN set) publishes the public key, waits until every verifier can find it, then writes the private key to the secret.',
        build: () => ({ noun: 'keys', verb: 'rotate' }),
      },
      retire: {
        summary: 'unpublish an older key; tokens it signed stop verifying',
        args: ['kid'],
        options: {
          force: {
            type: 'boolean',
            help: 'retire a key whose tokens may still be in use (they fail with 401)',
          },
        },
        details:
          'Refuses the newest key, and a key superseded less than ACCESS_TOKEN_TTL_SECONDS + SIGNING_KEY_REFRESH_SECONDS ago unless --force.',
        build: ([kid], values) => ({
          noun: 'keys',
          verb: 'retire',
          kid: kid as string,
          force: bool(values, 'force'),
        }),
      },
    },
  },
  audit: {
    summary: "who read or changed a person's records (the audit log)",
    verbs: {
      person: {
        summary: "list the reads and changes of a person's records, oldest first",
        args: ['entity_id'],
        options: {
          since: {
            type: 'string',
            value: '<time>',
            help: 'only events from this ISO 8601 time, e.g. 2026-09-01T00:00:00Z (default: 30 days ago)',
          },
          ...json,
        },
        details:
          "Reads the local run's audit file, or a deployed tenant's audit log group (AUDIT_LOG_GROUP, the stack's AuditLogGroupName output) with CloudWatch Logs Insights.",
        build: ([id], values) => ({
          noun: 'audit',
          verb: 'person',
          entityId: parseUuid(id as string, 'entity_id'),
          since: parseSince(str(values, 'since')),
          json: bool(values, 'json'),
        }),
      },
    },
  },
  people: {
    summary: "a person's data on request: export it, or erase it",
    verbs: {
      export: {
        summary: 'write one JSON file with every record about a person, their accounts and audit trail',
        args: ['entity_id'],
        options: {
          out: {
            type: 'string',
            value: '<file>',
            help: 'where to write it (default: person-<entity_id>.json)',
          },
        },
        details:
          'Records keep every value (documents and bank accounts unmasked); accounts come without password hashes.',
        build: ([id], values) => ({
          noun: 'people',
          verb: 'export',
          entityId: parseUuid(id as string, 'entity_id'),
          out: str(values, 'out'),
        }),
      },
      erase: {
        summary: "delete a person's records, accounts, sign-ins and refresh tokens",
        args: ['entity_id'],
        options: {
          force: {
            type: 'boolean',
            help: "erase a student still in a tutor's care (taken out of the tutors' care first)",
          },
        },
        details:
          "Refuses while a student of the person is in a tutor's care, unless --force. Backups and exports keep what they hold until their retention ends (docs/privacy.md).",
        build: ([id], values) => ({
          noun: 'people',
          verb: 'erase',
          entityId: parseUuid(id as string, 'entity_id'),
          force: bool(values, 'force'),
        }),
      },
    },
  },
  records: {
    summary: "the tenant's records",
    verbs: {
      'list-again': {
        summary:
          'give every record written before the listings index its entry there (once, after upgrading)',
        args: [],
        options: {},
        details:
          'Reads the records of every listed group and updates only those whose entry is missing or stale, then files each class under its course and terms again; safe to run again, and while the service runs.',
        build: () => ({ noun: 'records', verb: 'list-again' }),
      },
      'tally-again': {
        summary:
          "count the gradebook's tallies again from the results and attendance (once, after upgrading)",
        args: [],
        options: {},
        details:
          "Reads every result and attendance record and puts each line item's and student's tally where no write changed it meanwhile, trying those again; safe to run again, and while the service runs.",
        build: () => ({ noun: 'records', verb: 'tally-again' }),
      },
    },
  },
};

const nounList = Object.keys(nouns).join(', ');

function usageOf(noun: string, verb: string, spec: Verb): string {
  const args = spec.args.map((arg) => `<${arg}>`);
  const options = Object.entries(spec.options).map(([name, option]) => {
    const shown = option.type === 'string' ? `--${name} ${option.value}` : `--${name}`;
    if (option.required) return shown;
    return option.multiple ? `[${shown}]...` : `[${shown}]`;
  });
  return [PROGRAM, noun, verb, ...args, ...options].join(' ');
}

function verbHelp(noun: string, verb: string, spec: Verb): string {
  const lines = [`usage: ${usageOf(noun, verb, spec)}`, '', `${capitalise(spec.summary)}.`];
  if (spec.details) lines.push(spec.details);
  const options = Object.entries(spec.options);
  if (options.length > 0) {
    lines.push('', 'options:');
    for (const [name, option] of options) {
      const shown = option.type === 'string' ? `--${name} ${option.value}` : `--${name}`;
      lines.push(`  ${shown.padEnd(28)} ${option.help}${option.required ? ' (required)' : ''}`);
    }
  }
  return lines.join('\n');
}

function nounHelp(noun: string): string {
  const verbs = Object.entries(nouns[noun]?.verbs ?? {});
  return [
    `usage: ${PROGRAM} ${noun} <verb> [options]   (${PROGRAM} ${noun} <verb> --help for its options)`,
    '',
    ...verbs.map(([verb, spec]) => `  ${verb.padEnd(14)} ${spec.summary}`),
  ].join('\n');
}

const topHelp = () =>
  [
    `usage: ${PROGRAM} <noun> <verb> [options]   (${PROGRAM} <noun> --help for its verbs)`,
    '',
    ...Object.entries(nouns).map(([noun, spec]) => `  ${noun.padEnd(10)} ${spec.summary}`),
    '',
    'Works on the local run (`npm start`) unless TABLE_NAME, AWS_REGION and AWS credentials name a',
    "deployed tenant's table; key commands there also need SIGNING_KEY_SECRET_ARN. See docs/deploy.md.",
  ].join('\n');

const capitalise = (text: string) => `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;
const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** Reads `<noun> <verb> [arguments] [options]`; throws UsageError naming what is wrong. */
export function parseCommand(argv: readonly string[]): Parsed {
  const [noun, verb, ...rest] = argv;
  if (noun === undefined || isHelp(noun)) return { help: topHelp() };
  const nounSpec = nouns[noun];
  if (!nounSpec || !Object.hasOwn(nouns, noun)) {
    throw new UsageError(`unknown command ${noun}; the commands are ${nounList} (${PROGRAM} --help).`);
  }
  if (isHelp(verb)) return { help: nounHelp(noun) };
  if (verb === undefined) {
    throw new UsageError(
      `${noun} needs a verb: ${Object.keys(nounSpec.verbs).join(', ')} (${PROGRAM} ${noun} --help).`,
    );
  }
  const spec = Object.hasOwn(nounSpec.verbs, verb) ? nounSpec.verbs[verb] : undefined;
  if (!spec) {
    throw new UsageError(
      `unknown ${noun} verb ${verb}; the verbs are ${Object.keys(nounSpec.verbs).join(', ')} (${PROGRAM} ${noun} --help).`,
    );
  }
  const see = `(${PROGRAM} ${noun} ${verb} --help)`;
  // The tools take no short options but -h, so an argument like `-mK3…` is a value (a key id is base64url
  // and may start with a dash), not a cluster of flags: parseArgs is handed a stand-in for it.
  const dashed = new Map<string, string>();
  const args = rest.map((arg) => {
    if (!/^-[^-]/.test(arg) || arg === '-h') return arg;
    const standIn = `\u0000${dashed.size}`;
    dashed.set(standIn, arg);
    return standIn;
  });
  const restore = (value: string) => dashed.get(value) ?? value;
  let parsed: { values: Values; positionals: string[]; tokens: { kind: string; name?: string }[] };
  try {
    parsed = parseArgs({
      args,
      options: {
        ...Object.fromEntries(
          Object.entries(spec.options).map(([name, { type, multiple }]) => [
            name,
            { type, multiple: multiple ?? false },
          ]),
        ),
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    // node's messages go on for lines; the first sentence says what is wrong.
    throw new UsageError(`${(error as Error).message.split(/\.|\n/)[0]} ${see}`);
  }
  if (parsed.values.help === true) return { help: verbHelp(noun, verb, spec) };
  const positionals = parsed.positionals.map(restore);
  const values: Values = Object.fromEntries(
    Object.entries(parsed.values).map(([name, value]) => [
      name,
      typeof value === 'string' ? restore(value) : Array.isArray(value) ? value.map(restore) : value,
    ]),
  );
  if (positionals.length < spec.args.length) {
    throw new UsageError(`${noun} ${verb} needs <${spec.args[positionals.length]}> ${see}`);
  }
  if (positionals.length > spec.args.length) {
    throw new UsageError(`unexpected argument ${positionals[spec.args.length]} ${see}`);
  }
  const empty = positionals.findIndex((value) => value.trim() === '');
  if (empty >= 0) throw new UsageError(`<${spec.args[empty]}> is empty ${see}`);
  for (const [name, option] of Object.entries(spec.options)) {
    const given = parsed.tokens.filter((token) => token.kind === 'option' && token.name === name).length;
    if (given > 1 && !option.multiple) throw new UsageError(`--${name} is given more than once ${see}`);
    if (option.required && values[name] === undefined) throw new UsageError(`--${name} is required ${see}`);
    if (option.type === 'string' && !option.multiple && values[name] === '') {
      throw new UsageError(`--${name} needs a value ${see}`);
    }
  }
  try {
    return { command: spec.build(positionals, values) };
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${error.message} ${see}`);
    throw error;
  }
}
