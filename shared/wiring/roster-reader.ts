// The native groups as the OneRoster routes read them.
import { ListingRepository } from '../data/listing-repository';
import { RosterReader } from '../oneroster/roster-reader';
import { config, once } from './context';
import { documentClient } from './document-client';
import { recordRepository } from './record-repository';

export const rosterReader = once(
  () =>
    new RosterReader(
      recordRepository(),
      new ListingRepository(documentClient(), config().tableName),
      config().syncLagMs,
    ),
);
