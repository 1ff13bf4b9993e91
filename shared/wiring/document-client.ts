// The DynamoDB document client of the functions that read or write the table, built on first use.
import { createDocumentClient } from '../data/document-client';
import { config, once } from './context';

export const documentClient = once(() =>
  createDocumentClient({ region: config().region, endpoint: config().dynamodbEndpoint }),
);
