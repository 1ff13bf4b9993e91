// Composes the service's parts once per cold start from the parsed configuration: the document
// client, the repositories and the token issuer and verifier every handler shares.
import { TokenIssuer, TokenVerifier } from './auth/tokens';
import { type Config, parseConfig } from './config';
import { ClientRepository } from './data/client-repository';
import { createDocumentClient } from './data/document-client';
import { RecordRepository } from './data/record-repository';
import { SigningKeyRepository } from './data/signing-key-repository';
import { createLogger, type Logger } from './log';
import { RecordWriter } from './records/record-writer';

export interface Services {
  config: Config;
  logger: Logger;
  records: RecordRepository;
  writer: RecordWriter;
  clients: ClientRepository;
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
    tokenIssuer: new TokenIssuer(signingKeys, config),
    tokenVerifier: new TokenVerifier(signingKeys, config),
  };
}

let current: Services | undefined;

/** The process's services, built from the environment on first use and kept for the process's life. */
export function services(): Services {
  current ??= createServices(parseConfig(process.env));
  return current;
}
