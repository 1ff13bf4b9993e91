// The records of every group, read by the record routes, the token grants, sign-in and /me.
import { RecordRepository } from '../data/record-repository';
import { config, documentClient, once } from './context';

export const recordRepository = once(() => new RecordRepository(documentClient(), config().tableName));
