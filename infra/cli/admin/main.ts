// What `npm run admin` does (infra/cli/admin.ts starts it): parses, connects and prints; the work is in
// the other modules here. It takes its arguments, environment, standard input and output from its caller,
// so the tests run it in their own process, and answers the exit code: 2 on a bad argument (nothing
// changed), 1 when the tenant's table or secret cannot be reached.
import { writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AuditGroupWriter, auditGroupLog } from '../../../shared/audit/audit-group';
import { type AuditLog, fileAuditLog } from '../../../shared/audit/audit-log';
import { ConfigError, parseTokenTimings, type TokenTimings } from '../../../shared/config';
import { ClientRepository } from '../../../shared/data/client-repository';
import { createDocumentClient } from '../../../shared/data/document-client';
import { RecordRepository } from '../../../shared/data/record-repository';
import { SignInThrottleRepository } from '../../../shared/data/sign-in-throttle-repository';
import { SigningKeyRepository } from '../../../shared/data/signing-key-repository';
import { UserRepository } from '../../../shared/data/user-repository';
import { RecordWriter } from '../../../shared/records/record-writer';
import { secretsManagerStore } from '../../custom-resources/signing-key';
import { tenants } from '../../tenants';
import { resolveTarget, type Target } from '../target';
import { type AuditSource, auditOfPerson, fileAuditSource, logGroupAuditSource } from './audit';
import { createClient, listClients, revokeClient, setLogoutUris } from './clients';
import { type Command, PROGRAM, parseCommand } from './commands';
import { table } from './format';
import { type KeyStores, listKeys, retireKey, rotateKey } from './keys';
import { fileAgain, listAgain } from './listings';
import { erasePerson, exportPerson, type PeopleStores } from './people';
import { tallyAgain } from './tallies';
import { UsageError } from './usage-error';
import {
  type AccountStores,
  createUser,
  enrollTotp,
  generatePassword,
  listUsers,
  resetTotp,
  setPassword,
  setStatus,
  signOutUser,
  unlockUser,
} from './users';
import { parsePassword } from './validation';

/** What the command line gives a run, and where it prints: a line at a time. */
export interface AdminIo {
  argv: string[];
  env: Record<string, string | undefined>;
  /** Standard input: a terminal, or what was piped in, read whole. */
  stdin: { isTTY: boolean; read(): Promise<string> };
  out(line: string): void;
  err(line: string): void;
}

interface Context {
  print(text: string): void;
  clients: ClientRepository;
  accounts: AccountStores;
  keys: KeyStores;
  /** The password from standard input, when the command asked for it. */
  password: string | undefined;
  /** The school's name, as authenticator apps show a TOTP account's issuer. */
  tenantName: string;
  /** The tenant's audit events, where the target keeps them, and where admin commands add theirs. */
  audit: () => { source: AuditSource; log: AuditLog };
  /** The people commands' stores, built only for them. */
  people: () => PeopleStores;
  /** The tenant's table, for the records commands. */
  table: { db: DynamoDBDocumentClient; tableName: string };
}

const list = (values: string[]) => values.join(' ') || '-';

type Of<N extends Command['noun']> = Extract<Command, { noun: N }>;

async function runClients(command: Of<'clients'>, context: Context): Promise<void> {
  const { clients, print } = context;
  if (command.verb === 'create') {
    const directory = new RecordRepository(context.table.db, context.table.tableName);
    const { client, secret } = await createClient(
      clients,
      directory,
      command.registration,
      command.governance,
    );
    print(`Created ${client.type} client ${JSON.stringify(client.name)}.`);
    print(`client_id      ${client.client_id}`);
    if (secret) {
      print(`client_secret  ${secret}`);
      print('The secret is shown this once and only its hash is kept: store it now.');
    } else {
      print('A public client has no secret: it proves itself with PKCE.');
    }
    return;
  }
  if (command.verb === 'list') {
    const found = await listClients(clients);
    if (command.json) return print(JSON.stringify(found, null, 2));
    return print(
      table(
        [
          'client_id',
          'status',
          'type',
          'name',
          'rate_limit',
          'profile',
          'schools',
          'grant_types',
          'scopes',
          'redirect_uris',
        ],
        found.map((c) => [
          c.client_id,
          c.status,
          c.type,
          c.name,
          String(c.rate_limit),
          typeof c.profile === 'string' ? c.profile : c.profile ? 'its own' : '-',
          list(c.schools ?? []),
          list(c.grant_types),
          list(c.scopes),
          list(c.redirect_uris),
        ]),
      ),
    );
  }
  if (command.verb === 'set-logout-uris') {
    const client = await setLogoutUris(clients, command.clientId, command.uris);
    return print(
      `post_logout_redirect_uris of ${client.client_id}: ${list(client.post_logout_redirect_uris)}`,
    );
  }
  await revokeClient(clients, command.clientId);
  return print(
    `Revoked client ${command.clientId}: it gets no new tokens, and every route refuses those it holds within a minute.`,
  );
}

async function runUsers(
  command: Of<'users'>,
  { accounts, password: piped, tenantName, print }: Context,
): Promise<void> {
  if (command.verb === 'list') {
    const found = await listUsers(accounts.users);
    if (command.json) return print(JSON.stringify(found, null, 2));
    return print(
      table(
        ['username', 'email', 'status', 'admin', 'totp', 'entity_id', 'user_id'],
        found.map((u) => [
          u.username,
          u.email ?? '-',
          u.status,
          u.admin ? 'yes' : 'no',
          u.totp ? 'yes' : 'no',
          u.entity_id,
          u.user_id,
        ]),
      ),
    );
  }
  if (command.verb === 'create' || command.verb === 'set-password') {
    const password = piped ?? generatePassword();
    const user =
      command.verb === 'create'
        ? await createUser(accounts, command.account, password)
        : await setPassword(accounts.users, command.username, password);
    print(
      command.verb === 'create'
        ? `Created account ${user.username}${user.admin ? ' (admin)' : ''} for entity ${user.entity_id}: user_id ${user.user_id}.`
        : `Set the password of ${user.username}.`,
    );
    if (!piped) {
      print(`password  ${password}`);
      print('The password is shown this once: hand it over now.');
    }
    return;
  }
  if (command.verb === 'unlock') {
    const user = await unlockUser(accounts, command.username);
    return print(`Unlocked ${user.username}: active, and its failed sign-ins are forgotten.`);
  }
  if (command.verb === 'sign-out') {
    const user = await signOutUser(accounts.users, command.username);
    return print(`Signed ${user.username} out everywhere: its sessions and refresh tokens no longer work.`);
  }
  if (command.verb === 'totp-enroll') {
    const { user, uri } = await enrollTotp(accounts.users, command.username, tenantName);
    print(
      `Enrolled a TOTP authenticator for ${user.username}. Load this URI into the app (as text or a QR code):`,
    );
    print(uri);
    return print('The URI is shown this once: hand it over now.');
  }
  if (command.verb === 'totp-reset') {
    const user = await resetTotp(accounts.users, command.username);
    return print(
      `Removed the TOTP authenticator of ${user.username}; enrol a new one with users totp-enroll.`,
    );
  }
  const user = await setStatus(
    accounts.users,
    command.username,
    command.verb === 'enable' ? 'active' : 'disabled',
  );
  return print(`${user.username} is ${user.status}.`);
}

async function runKeys(command: Of<'keys'>, { keys, print }: Context): Promise<void> {
  const refresh = `SIGNING_KEY_REFRESH_SECONDS (${keys.timings.signingKeyRefreshSeconds} s)`;
  if (command.verb === 'list') {
    const found = await listKeys(keys);
    if (command.json) return print(JSON.stringify(found, null, 2));
    const now = keys.now().toISOString();
    return print(
      table(
        ['kid', 'created_at', 'state', 'retire'],
        found.map((k) => [
          k.kid,
          k.created_at,
          k.signing ? 'signing' : k.newest ? 'newest, not signing' : 'verifying',
          k.retirable_at === undefined ? '-' : k.retirable_at <= now ? 'now' : `from ${k.retirable_at}`,
        ]),
      ),
    );
  }
  if (command.verb === 'rotate') {
    const { kid, previous } = await rotateKey(keys);
    print(`Published key ${kid}: new tokens are signed with it within ${refresh}.`);
    if (previous?.retirable_at) {
      print(
        `Key ${previous.kid} keeps verifying the tokens it signed; retire it from ${previous.retirable_at}: ${PROGRAM} keys retire ${previous.kid}`,
      );
    }
    return;
  }
  const retired = await retireKey(keys, command.kid, command.force);
  return print(`Retired key ${retired.kid}: verifiers refuse its tokens within ${refresh}.`);
}

async function runAudit(command: Of<'audit'>, { audit, print }: Context): Promise<void> {
  const events = await auditOfPerson(audit().source, command.entityId, command.since);
  if (command.json) return print(JSON.stringify(events, null, 2));
  if (events.length === 0) return print(`No reads or changes of ${command.entityId}'s records found.`);
  return print(
    table(
      ['time', 'action', 'route', 'outcome', 'client_id', 'actor_entity_id', 'records', 'request_id'],
      events.map((e) => [
        e.time,
        e.action,
        e.route,
        String(e.outcome),
        e.client_id ?? '-',
        e.actor_entity_id ?? '-',
        e.record_ids.length > 3 ? `${e.record_ids.length} records` : list(e.record_ids),
        e.request_id,
      ]),
    ),
  );
}

async function runPeople(command: Of<'people'>, { people, print }: Context): Promise<void> {
  if (command.verb === 'export') {
    const exported = await exportPerson(people(), command.entityId);
    const out = command.out ?? `person-${command.entityId}.json`;
    // Only the operator reads it: it holds the person's every value.
    await writeFile(out, `${JSON.stringify(exported, null, 2)}\n`, { mode: 0o600 });
    const count = Object.values(exported.records).reduce((n, list) => n + list.length, 0);
    return print(
      `Wrote ${out}: the entity, ${count} role record(s), ${exported.accounts.length} account(s), ${exported.audit.length} audit event(s).`,
    );
  }
  const erased = await erasePerson(people(), command.entityId, command.force);
  print(
    `Erased ${command.entityId}: ${erased.records.map((r) => `${r.group} ${r.id}`).join(', ')}; accounts: ${list(erased.accounts)}.`,
  );
  if (erased.tutorsChanged.length > 0)
    print(`Taken out of the care of tutor(s) ${list(erased.tutorsChanged)}.`);
  if (erased.tutorsDeleted.length > 0)
    print(`Deleted tutor record(s) left with no student: ${list(erased.tutorsDeleted)}.`);
  return print(
    'Backups and earlier exports keep what they hold until their retention ends (docs/privacy.md).',
  );
}

async function runRecords(
  command: Extract<Command, { noun: 'records' }>,
  { table: { db, tableName }, print }: Context,
): Promise<void> {
  if (command.verb === 'tally-again') {
    const { updated, unsettled } = await tallyAgain(db, tableName);
    return print(
      `Counted the tallies again from the records: corrected ${updated} line item(s) and student(s)${unsettled > 0 ? `; ${unsettled} kept being written: run it again` : ''}.`,
    );
  }
  const updated = await listAgain(db, tableName);
  const filed = await fileAgain(db, tableName);
  print(
    `Listed ${updated} record(s) again; every other record had its entry. Filed ${filed} record(s) under what they name.`,
  );
}

function run(command: Command, context: Context): Promise<void> {
  if (command.noun === 'clients') return runClients(command, context);
  if (command.noun === 'users') return runUsers(command, context);
  if (command.noun === 'audit') return runAudit(command, context);
  if (command.noun === 'people') return runPeople(command, context);
  if (command.noun === 'records') return runRecords(command, context);
  return runKeys(command, context);
}

/** Where the target's audit events are: the local run's file, or a deployed tenant's log group. */
function auditOf(target: Target, clients: { destroy(): void }[]): { source: AuditSource; log: AuditLog } {
  const { audit, region } = target;
  if (audit === undefined) {
    throw new UsageError(
      "set AUDIT_LOG_GROUP to the tenant's audit log group (the stack's AuditLogGroupName output).",
    );
  }
  if ('file' in audit) return { source: fileAuditSource(audit.file), log: fileAuditLog(audit.file) };
  const client = new CloudWatchLogsClient({
    region,
    ...(audit.endpoint
      ? { endpoint: audit.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  clients.push(client);
  return {
    source: logGroupAuditSource(client, audit.logGroup),
    log: auditGroupLog(new AuditGroupWriter(client, audit.logGroup), 'admin-cli'),
  };
}

/** Reads a password piped to standard input; a terminal is refused, since it would echo the password. */
async function readPassword(stdin: AdminIo['stdin']): Promise<string> {
  if (stdin.isTTY) {
    throw new UsageError(
      `--password-stdin reads a password piped in, for example: printf '%s' "$PASSWORD" | ${PROGRAM} ... --password-stdin`,
    );
  }
  return parsePassword(await stdin.read());
}

/** Token timings: the environment's, else the tenant's in infra/tenants.ts, else the service defaults. */
function tokenTimings(env: AdminIo['env'], target: Target): TokenTimings {
  const tenant = tenants.find((t) => t.id === target.tenantId);
  try {
    return parseTokenTimings({
      ACCESS_TOKEN_TTL_SECONDS: env.ACCESS_TOKEN_TTL_SECONDS ?? tenant?.tokens.accessTtlSeconds.toString(),
      SIGNING_KEY_REFRESH_SECONDS:
        env.SIGNING_KEY_REFRESH_SECONDS ?? tenant?.tokens.signingKeyRefreshSeconds?.toString(),
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

function secretsManagerOf(target: Target) {
  const { signingKeySecretArn: arn, secretsManagerEndpoint: endpoint, region } = target;
  if (!arn) return undefined;
  const client = new SecretsManagerClient({
    region,
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  return { client, store: secretsManagerStore(client, arn) };
}

/** A one-line reason for a failure to reach the tenant: the SDK's own first line, naming the error. */
function describeFailure(error: unknown, target: Target | undefined): string {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.split('\n')[0] || error.name;
  if (target && error.name === 'ResourceNotFoundException') {
    const secret = target.signingKeySecretArn ? `, secret ${target.signingKeySecretArn}` : '';
    return `${message} (table ${target.tableName}${secret} in ${target.region}${target.endpoint ? ` at ${target.endpoint}` : ''})`;
  }
  return error.name && error.name !== 'Error' ? `${error.name}: ${message}` : message;
}

/** Runs one command line; answers its exit code. */
export async function runAdmin({ argv, env, stdin, out: print, err }: AdminIo): Promise<number> {
  let command: Command;
  let password: string | undefined;
  try {
    const parsed = parseCommand(argv);
    if ('help' in parsed) {
      print(parsed.help);
      return 0;
    }
    command = parsed.command;
    if ('passwordStdin' in command && command.passwordStdin) password = await readPassword(stdin);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`admin: ${error.message}`);
    return 2;
  }
  let target: Target | undefined;
  try {
    target = resolveTarget(env);
    const db = createDocumentClient({ region: target.region, endpoint: target.endpoint });
    const secrets = secretsManagerOf(target);
    const tableName = target.tableName;
    const opened: { destroy(): void }[] = [];
    const resolved = target;
    try {
      await run(command, {
        print,
        clients: new ClientRepository(db, tableName),
        accounts: {
          users: new UserRepository(db, tableName),
          records: new RecordRepository(db, tableName),
          throttles: new SignInThrottleRepository(db, tableName),
        },
        keys: {
          keys: new SigningKeyRepository(db, tableName),
          secret: secrets?.store,
          timings: tokenTimings(env, target),
          now: () => new Date(),
          wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
          progress: err,
        },
        password,
        tenantName:
          env.TENANT_NAME ?? tenants.find((t) => t.id === target?.tenantId)?.name ?? target.tenantId,
        audit: () => auditOf(resolved, opened),
        table: { db, tableName },
        people: () => {
          const records = new RecordRepository(db, tableName);
          const { source, log } = auditOf(resolved, opened);
          return {
            db,
            tableName,
            tenantId: resolved.tenantId,
            records,
            writer: new RecordWriter(db, tableName, records),
            users: new UserRepository(db, tableName),
            auditSource: source,
            auditLog: log,
            operator: `${userInfo().username}@admin-cli`,
          };
        },
      });
    } finally {
      db.destroy();
      secrets?.client.destroy();
      for (const client of opened) client.destroy();
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`admin: ${error.message}`);
      return 2;
    }
    err(`admin: ${command.noun} ${command.verb} failed: ${describeFailure(error, target)}`);
    return 1;
  }
}
