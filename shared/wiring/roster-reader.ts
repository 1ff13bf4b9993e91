// The native groups as the OneRoster routes read them: for a client registered with schools, only what
// those schools hold (SchoolRosterReader), so that no route can read past them.
import { ListingRepository } from '../data/listing-repository';
import type { ApiRequest } from '../exchange';
import { RosterReader } from '../oneroster/roster-reader';
import { SchoolRosterReader } from '../oneroster/school-roster-reader';
import { config, once } from './context';
import { documentClient } from './document-client';
import { recordRepository } from './record-repository';

const listings = once(() => new ListingRepository(documentClient(), config().tableName));

const tenantReader = once(() => new RosterReader(recordRepository(), listings(), config().syncLagMs));

/** The reader of a request: the tenant's, or its client's schools'. */
export function rosterReader(request: ApiRequest): RosterReader {
  const schools = request.auth?.schools;
  return schools
    ? new SchoolRosterReader(recordRepository(), listings(), config().syncLagMs, schools)
    : tenantReader();
}
