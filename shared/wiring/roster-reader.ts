// The native groups as the OneRoster routes read them: for a client registered with schools, only what
// those schools hold (SchoolRosterReader), so that no route can read past them.
import { sharedBySchools } from '../auth/school-scope';
import { ListingRepository } from '../data/listing-repository';
import type { RecordGroup } from '../domain/groups';
import type { ApiRequest } from '../exchange';
import { RosterReader } from '../oneroster/roster-reader';
import { SchoolRosterReader } from '../oneroster/school-roster-reader';
import { config, once } from './context';
import { documentClient } from './document-client';
import { recordRepository } from './record-repository';

const listings = once(() => new ListingRepository(documentClient(), config().tableName));

const tenantReader = once(() => new RosterReader(recordRepository(), listings(), config().syncLagMs));

/**
 * The reader of a request: the tenant's, or its client's schools'. A route reading only a group every
 * school shares (`schoolWide` in groups.ts: the gradebook's categories) names it, and reads it whole.
 */
export function rosterReader(request: ApiRequest, sharedGroup?: RecordGroup): RosterReader {
  const schools = request.auth?.schools;
  return schools && !(sharedGroup && sharedBySchools(sharedGroup))
    ? new SchoolRosterReader(recordRepository(), listings(), config().syncLagMs, schools)
    : tenantReader();
}
