// The records of every group, read by the record routes, the token grants, sign-in and /me.
import { RecordRepository } from '../data/record-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const recordRepository = once(() => new RecordRepository(documentClient(), config().tableName));
