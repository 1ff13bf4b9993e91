// A bad tenant entry stops synth with a message naming the tenant and the field.
import { describe, expect, it } from 'vitest';
import { parseTenants, type TenantInput, tenantInputs } from './tenants';

const valid: TenantInput = {
  id: 'escola-teste',
  name: 'Escola de Teste',
  tokens: { accessTtlSeconds: 900, refreshTtlSeconds: 86_400 },
  throttling: { rateLimit: 10, burstLimit: 20 },
  logRetentionDays: 30,
  production: false,
};

const problemsOf = (input: TenantInput[]) => {
  try {
    parseTenants(input);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('tenant configuration', () => {
  it('accepts the configured tenants and fills the defaults', () => {
    const [tenant] = parseTenants([valid]);
    expect(tenant).toMatchObject({ region: 'eu-west-1', corsOrigins: [] });
    expect(parseTenants(tenantInputs).length).toBeGreaterThanOrEqual(2);
  });

  it('names the tenant and the field of every bad value', () => {
    const message = problemsOf([
      valid,
      {
        ...valid,
        id: 'colegio-mau',
        throttling: { rateLimit: 10, burstLimit: -1 },
        logRetentionDays: 42,
        corsOrigins: ['http://insecure.example.org', 'https://example.org/path'],
      },
    ]);
    expect(message).toContain('tenant colegio-mau: throttling.burstLimit');
    expect(message).toContain('tenant colegio-mau: logRetentionDays: one of 1, 3, 5');
    expect(message).toContain('tenant colegio-mau: corsOrigins.0');
    expect(message).toContain('tenant colegio-mau: corsOrigins.1: an origin, no path');
    expect(message).not.toContain('escola-teste');
  });

  it('refuses a refresh lifetime not longer than the access lifetime', () => {
    expect(problemsOf([{ ...valid, tokens: { accessTtlSeconds: 900, refreshTtlSeconds: 900 } }])).toContain(
      'tenant escola-teste: tokens.refreshTtlSeconds: must be longer than the access token lifetime',
    );
  });

  it('takes a signing-key refresh period of 0 to 3600 seconds, or none for the service default', () => {
    const tokens = (signingKeyRefreshSeconds: number) => ({ ...valid.tokens, signingKeyRefreshSeconds });
    expect(parseTenants([{ ...valid, tokens: tokens(0) }])[0]?.tokens.signingKeyRefreshSeconds).toBe(0);
    expect(parseTenants([valid])[0]?.tokens.signingKeyRefreshSeconds).toBeUndefined();
    expect(problemsOf([{ ...valid, tokens: tokens(3601) }])).toContain(
      'tenant escola-teste: tokens.signingKeyRefreshSeconds',
    );
    expect(problemsOf([{ ...valid, tokens: tokens(1.5) }])).toContain(
      'tenant escola-teste: tokens.signingKeyRefreshSeconds',
    );
  });

  it('refuses the local demo tenant, duplicated ids and domains, and unknown fields', () => {
    expect(problemsOf([{ ...valid, id: 'demo' }])).toContain('tenant demo: id:');
    expect(problemsOf([valid, valid])).toContain('tenant escola-teste: id: used by more than one tenant');
    const domain = {
      name: 'api.example.org',
      certificateArn: 'arn:aws:acm:eu-west-1:111111111111:certificate/0b5e1c4a-5a0d-4d6e-9d1f-2a6f3c1e8b70',
    };
    expect(
      problemsOf([
        { ...valid, domain },
        { ...valid, id: 'outra', domain },
      ]),
    ).toContain('domain.name: api.example.org is used by more than one tenant');
    expect(problemsOf([{ ...valid, prod: true } as TenantInput])).toContain('tenant escola-teste: (entry)');
  });

  it('defaults the export schedule and refuses one EventBridge cannot run, naming the field', () => {
    expect(parseTenants([valid])[0]?.exports).toEqual({ schedule: '0 2 * * *', retentionDays: 365 });
    const message = problemsOf([
      { ...valid, exports: { schedule: '*/5 * * * *', retentionDays: 0 } },
      { ...valid, id: 'outra', exports: { schedule: '0 2 1 * MON', retentionDays: 30 } },
      { ...valid, id: 'terceira', exports: { schedule: '0 25 * * *', retentionDays: 30 } },
    ]);
    expect(message).toContain('tenant escola-teste: exports.schedule: the minute must be one number');
    expect(message).toContain('tenant escola-teste: exports.retentionDays');
    expect(message).toContain('tenant outra: exports.schedule: set the day of month or the day of week');
    expect(message).toContain('tenant terceira: exports.schedule:');
  });

  it('refuses a custom domain without a valid certificate ARN', () => {
    const domain = { name: 'api.example.org', certificateArn: 'arn:aws:iam::111111111111:role/x' };
    expect(problemsOf([{ ...valid, domain }])).toContain('tenant escola-teste: domain.certificateArn');
  });
});
