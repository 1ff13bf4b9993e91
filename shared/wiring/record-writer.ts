// The transactional writer of records, for the write routes only.
import { RecordWriter } from '../records/record-writer';
import { config, once } from './context';
import { documentClient } from './document-client';
import { recordRepository } from './record-repository';

export const recordWriter = once(
  () => new RecordWriter(documentClient(), config().tableName, recordRepository()),
);
