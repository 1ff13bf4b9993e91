// Composes the service's parts once per cold start from the parsed configuration: the document
// client, the repositories and the token issuer and verifier every handler shares.
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretsManagerPrivateKeySource } from './auth/secrets-manager-private-key-source';
import { SignInThrottle } from './auth/sign-in-throttle';
import { type PrivateKeySource, TokenIssuer, TokenVerifier } from './auth/tokens';
import { type Config, parseConfig } from './config';
import { AuthorizationCodeRepository } from './data/authorization-code-repository';
import { AuthorizationRequestRepository } from './data/authorization-request-repository';
import { ClientRepository } from './data/client-repository';
import { createDocumentClient } from './data/document-client';
import { RecordRepository } from './data/record-repository';
import { RefreshTokenRepository } from './data/refresh-token-repository';
import { SignInThrottleRepository } from './data/sign-in-throttle-repository';
import { SigningKeyRepository } from './data/signing-key-repository';
import { UserRepository } from './data/user-repository';
import { createLogger, type Logger } from './log';
import { RecordWriter } from './records/record-writer';

export interface Services {
  config: Config;
  logger: Logger;
  records: RecordRepository;
  writer: RecordWriter;
  clients: ClientRepository;
  users: UserRepository;
  codes: AuthorizationCodeRepository;
  refreshTokens: RefreshTokenRepository;
  authorizationRequests: AuthorizationRequestRepository;
  signInThrottle: SignInThrottle;
  tokenIssuer: TokenIssuer;
  tokenVerifier: TokenVerifier;
}

export function createServices(config: Config, logger = createLogger(config.logLevel)): Services {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  const signingKeys = new SigningKeyRepository(db, config.tableName);
  const records = new RecordRepository(db, config.tableName);
  return {
    config,
    logger,
    records,
    writer: new RecordWriter(db, config.tableName, records),
    clients: new ClientRepository(db, config.tableName),
    users: new UserRepository(db, config.tableName),
    codes: new AuthorizationCodeRepository(db, config.tableName),
    refreshTokens: new RefreshTokenRepository(db, config.tableName),
    authorizationRequests: new AuthorizationRequestRepository(db, config.tableName),
    signInThrottle: new SignInThrottle(new SignInThrottleRepository(db, config.tableName)),
    tokenIssuer: new TokenIssuer(privateKeySource(config, signingKeys), config),
    tokenVerifier: new TokenVerifier(signingKeys, config),
  };
}

/** A deployed tenant keeps its private key in Secrets Manager; the local run keeps it in the table. */
function privateKeySource(config: Config, table: SigningKeyRepository): PrivateKeySource {
  if (!config.signingKeySecretArn) return table;
  const client = new SecretsManagerClient({ region: config.region });
  return new SecretsManagerPrivateKeySource(client, config.signingKeySecretArn);
}

let current: Services | undefined;

/** The process's services, built from the environment on first use and kept for the process's life. */
export function services(): Services {
  current ??= createServices(parseConfig(process.env));
  return current;
}
