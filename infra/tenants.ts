// Every deployed tenant and its settings, under version control: `npx cdk deploy School-<id>` deploys
// one of them. Each entry is validated at synth, and a bad one stops synth naming the tenant and field.
import * as z from 'zod';
import { scheduleProblem } from '../shared/exports/schedule';

/** The retention periods CloudWatch Logs accepts, in days. */
const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const hostname = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const TenantSchema = z
  .object({
    /** Names the stack (`School-<id>`) and goes into every token; the local run's `demo` is not deployable. */
    id: z
      .string()
      .regex(/^[a-z][a-z0-9-]{1,39}$/, 'lower-case letters, digits and dashes, 2 to 40 long')
      .refine((id) => id !== 'demo', 'demo is the local run tenant and is never deployed'),
    name: z.string().min(1).max(200),
    /** The AWS account and region the tenant's stack deploys to; no account keeps the stack portable. */
    account: z
      .string()
      .regex(/^\d{12}$/, 'a 12-digit AWS account id')
      .optional(),
    region: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'an AWS region such as eu-west-1')
      .default('eu-west-1'),
    /** A custom domain for the API; its ACM certificate must be in the stack's region. */
    domain: z
      .object({
        name: z.string().regex(hostname, 'a lower-case host name such as api.example.org'),
        certificateArn: z
          .string()
          .regex(
            /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36}$/,
            'an ACM certificate ARN',
          ),
      })
      .optional(),
    tokens: z
      .object({
        accessTtlSeconds: z.number().int().min(60).max(86_400),
        refreshTtlSeconds: z.number().int().min(60).max(7_776_000),
        /**
         * How often functions re-read the signing keys (SIGNING_KEY_REFRESH_SECONDS; the service's default,
         * 300, when absent): a rotated key signs, and a retired key stops verifying, within this long.
         */
        signingKeyRefreshSeconds: z.number().int().min(0).max(3600).optional(),
      })
      .refine((t) => t.refreshTtlSeconds > t.accessTtlSeconds, {
        message: 'must be longer than the access token lifetime',
        path: ['refreshTtlSeconds'],
      }),
    /**
     * The sign-on session (a cookie bound to a session item): its idle and absolute lifetimes, whether
     * accounts with admin rights must give a TOTP code after their password, and the sign-in page's
     * language when the browser names none it speaks.
     */
    signOn: z
      .object({
        sessionIdleSeconds: z.number().int().min(60).max(2_592_000).default(28_800),
        sessionAbsoluteSeconds: z.number().int().min(60).max(7_776_000).default(86_400),
        adminTotpRequired: z.boolean().default(false),
        locale: z.enum(['en', 'pt']).default('pt'),
      })
      .strict()
      .refine((s) => s.sessionAbsoluteSeconds >= s.sessionIdleSeconds, {
        message: 'must be at least the idle lifetime',
        path: ['sessionAbsoluteSeconds'],
      })
      .default({
        sessionIdleSeconds: 28_800,
        sessionAbsoluteSeconds: 86_400,
        adminTotpRequired: false,
        locale: 'pt',
      }),
    /** API Gateway stage throttling: steady requests per second and the burst above it. */
    throttling: z.object({
      rateLimit: z.number().positive().max(10_000),
      burstLimit: z.number().int().positive().max(5_000),
    }),
    /** Browser origins allowed to call the API; none (the default) sends no CORS headers at all. */
    corsOrigins: z
      .array(z.url({ protocol: /^https$/ }).refine((o) => new URL(o).origin === o, 'an origin, no path'))
      .default([]),
    logRetentionDays: z.number().refine((days) => (LOG_RETENTION_DAYS as readonly number[]).includes(days), {
      message: `one of ${LOG_RETENTION_DAYS.join(', ')}`,
    }),
    /** Production keeps the table, key and secret when the stack is deleted, and protects the table. */
    production: z.boolean(),
    /** X-Ray active tracing of every function (Lambda's own segments; no tracing library is loaded). */
    tracing: z.boolean().default(false),
    /** The scheduled export: a crontab pattern in UTC, and how many days each run is kept in the bucket. */
    exports: z
      .object({
        schedule: z.string().superRefine((pattern, ctx) => {
          const problem = scheduleProblem(pattern);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
        retentionDays: z.number().int().min(1).max(3653),
      })
      .strict()
      .default({ schedule: '0 2 * * *', retentionDays: 365 }),
    /** Where alarm notifications are mailed; without one, subscribe to the alarm topic by hand. */
    alarmEmail: z.email().optional(),
  })
  .strict();

export type TenantInput = z.input<typeof TenantSchema>;
export type Tenant = z.output<typeof TenantSchema>;

export class TenantConfigError extends Error {
  override name = 'TenantConfigError';
}

/** Validates the tenants; the error names every bad field of every tenant, and duplicated ids. */
export function parseTenants(input: readonly TenantInput[]): Tenant[] {
  const problems: string[] = [];
  const tenants: Tenant[] = [];
  input.forEach((entry, index) => {
    const parsed = TenantSchema.safeParse(entry);
    const label = typeof entry?.id === 'string' ? `tenant ${entry.id}` : `tenant #${index + 1}`;
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push(`${label}: ${issue.path.join('.') || '(entry)'}: ${issue.message}`);
      }
      return;
    }
    tenants.push(parsed.data);
  });
  const seen = new Set<string>();
  for (const { id, domain } of tenants) {
    if (seen.has(id)) problems.push(`tenant ${id}: id: used by more than one tenant`);
    seen.add(id);
    if (domain && tenants.filter((t) => t.domain?.name === domain.name).length > 1) {
      problems.push(`tenant ${id}: domain.name: ${domain.name} is used by more than one tenant`);
    }
  }
  if (problems.length > 0)
    throw new TenantConfigError(`Invalid tenant configuration:\n  ${problems.join('\n  ')}`);
  return tenants;
}

/** The schools this service is deployed for. */
export const tenantInputs: readonly TenantInput[] = [
  {
    id: 'escola-norte',
    name: 'Agrupamento de Escolas do Norte',
    region: 'eu-west-1',
    domain: {
      name: 'api.escola-norte.example.org',
      certificateArn: 'arn:aws:acm:eu-west-1:111111111111:certificate/0b5e1c4a-5a0d-4d6e-9d1f-2a6f3c1e8b70',
    },
    tokens: { accessTtlSeconds: 900, refreshTtlSeconds: 2_592_000 },
    throttling: { rateLimit: 50, burstLimit: 100 },
    corsOrigins: ['https://portal.escola-norte.example.org'],
    logRetentionDays: 365,
    production: true,
    tracing: true,
    exports: { schedule: '30 1 * * *', retentionDays: 400 },
    signOn: {
      sessionIdleSeconds: 28_800,
      sessionAbsoluteSeconds: 86_400,
      adminTotpRequired: true,
      locale: 'pt',
    },
    alarmEmail: 'ops@escola-norte.example.org',
  },
  {
    id: 'colegio-sul',
    name: 'Colégio do Sul (staging)',
    region: 'eu-west-1',
    tokens: { accessTtlSeconds: 600, refreshTtlSeconds: 86_400, signingKeyRefreshSeconds: 60 },
    throttling: { rateLimit: 10, burstLimit: 20 },
    logRetentionDays: 30,
    production: false,
    exports: { schedule: '0 3 * * MON-FRI', retentionDays: 14 },
  },
];

export const tenants: readonly Tenant[] = parseTenants(tenantInputs);
