import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, parseExportConfig, parseTokenTimings } from './config';

const valid = {
  TABLE_NAME: 'school-demo',
  TENANT_ID: 'demo',
  TENANT_NAME: 'Demo School',
  CURSOR_KEY: 'test-cursor-key-of-at-least-32-characters',
  PUBLIC_BASE_URL: 'https://api.example.org/',
};

describe('parseConfig', () => {
  it('reads a deployed function environment, with the defaults for what is unset', () => {
    expect(parseConfig(valid)).toEqual({
      tableName: 'school-demo',
      tenantId: 'demo',
      tenantName: 'Demo School',
      publicBaseUrl: 'https://api.example.org',
      issuer: 'https://api.example.org/api/sso',
      audience: 'https://api.example.org/api',
      accessTokenTtlSeconds: 900,
      refreshTokenTtlSeconds: 2_592_000,
      signingKeyRefreshSeconds: 300,
      revocationRefreshSeconds: 20,
      signingKeySecretArn: undefined,
      region: 'eu-west-1',
      dynamodbEndpoint: undefined,
      logLevel: 'info',
      syncLagMs: 2000,
      sessionIdleSeconds: 28_800,
      sessionAbsoluteSeconds: 86_400,
      adminTotpRequired: false,
      defaultLocale: 'en',
      metricsEnabled: true,
      cursorKey: 'test-cursor-key-of-at-least-32-characters',
      usageFlushSeconds: 10,
      webhookLoopback: false,
    });
  });

  it('leaves metrics out with METRICS=off, and names a value that is neither on nor off', () => {
    expect(parseConfig({ ...valid, METRICS: 'off' }).metricsEnabled).toBe(false);
    expect(() => parseConfig({ ...valid, METRICS: 'no' })).toThrow(/METRICS/);
  });

  it('takes every optional setting in range', () => {
    const config = parseConfig({
      ...valid,
      ACCESS_TOKEN_TTL_SECONDS: '600',
      SIGNING_KEY_REFRESH_SECONDS: '0',
      REVOCATION_REFRESH_SECONDS: '0',
      SIGNING_KEY_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:signing-AbCdEf',
      AWS_REGION: 'eu-central-1',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      LOG_LEVEL: 'silent',
      SYNC_LAG_MS: '0',
      SESSION_IDLE_SECONDS: '900',
      SESSION_ABSOLUTE_SECONDS: '3600',
      ADMIN_TOTP_REQUIRED: 'true',
      DEFAULT_LOCALE: 'pt',
    });
    expect(config).toMatchObject({
      accessTokenTtlSeconds: 600,
      signingKeyRefreshSeconds: 0,
      revocationRefreshSeconds: 0,
      region: 'eu-central-1',
      dynamodbEndpoint: 'http://127.0.0.1:8000',
      logLevel: 'silent',
      syncLagMs: 0,
      sessionIdleSeconds: 900,
      sessionAbsoluteSeconds: 3600,
      adminTotpRequired: true,
      defaultLocale: 'pt',
    });
  });

  it('names every bad variable in one error', () => {
    const parse = () =>
      parseConfig({
        TENANT_ID: 'Demo!',
        TENANT_NAME: 'Demo',
        PUBLIC_BASE_URL: 'ftp://example.org',
        ACCESS_TOKEN_TTL_SECONDS: '30',
        SIGNING_KEY_SECRET_ARN: 'not-an-arn',
        REVOCATION_REFRESH_SECONDS: '31',
        LOG_LEVEL: 'loud',
        SYNC_LAG_MS: '1.5',
      });
    expect(parse).toThrow(ConfigError);
    expect(parse).toThrow(
      /PUBLIC_BASE_URL: must be an http or https URL; TABLE_NAME: is required; TENANT_ID: must be lower-case letters.*; ACCESS_TOKEN_TTL_SECONDS: must be a whole number from 60 to 86400; REVOCATION_REFRESH_SECONDS: must be a whole number from 0 to 30; SIGNING_KEY_SECRET_ARN: must be a Secrets Manager secret ARN; LOG_LEVEL: must be one of debug, info, warn, error, silent; SYNC_LAG_MS: must be a whole number/,
    );
  });
});

describe('the export and token-timing settings', () => {
  it('read only what they need', () => {
    expect(
      parseExportConfig({ TABLE_NAME: 't-1', TENANT_ID: 'demo', EXPORT_BUCKET: 'school-demo-exports' }),
    ).toEqual({
      tableName: 't-1',
      tenantId: 'demo',
      region: 'eu-west-1',
      dynamodbEndpoint: undefined,
      logLevel: 'info',
      syncLagMs: 2000,
      exportBucket: 'school-demo-exports',
      s3Endpoint: undefined,
    });
    expect(() =>
      parseExportConfig({ TABLE_NAME: 't-1', TENANT_ID: 'demo', EXPORT_BUCKET: 'No_Bucket' }),
    ).toThrow(/EXPORT_BUCKET: must be an S3 bucket name/);
    expect(parseTokenTimings({})).toEqual({ accessTokenTtlSeconds: 900, signingKeyRefreshSeconds: 300 });
    expect(() => parseTokenTimings({ SIGNING_KEY_REFRESH_SECONDS: '3601' })).toThrow(ConfigError);
  });
});
