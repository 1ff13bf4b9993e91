// The first responses kept for POSTs sent with an Idempotency-Key: the create and add-document routes.
import { IdempotencyStore } from '../records/idempotency';
import { config, once } from './context';
import { documentClient } from './document-client';

export const idempotencyStore = once(() => new IdempotencyStore(documentClient(), config().tableName));
