// The listings: collections the OneRoster binding pages that are not a whole native group (its users,
// the users of one role, the organisations, and the persons without a role whom /users leaves out).
// Each is a partition of the keys-only `listings` index, in sourcedId (entity id) order, so a page of
// one is a Query of a key range whatever the tenant's size. A record's listing follows from the record
// (`listingOf`): every Put of a record item writes it (record-items.ts), and the two steps that change
// an entity's roles without a Put keep it (write-steps.ts).
import type { RecordGroup } from '../domain/groups';
import type { Entity, GroupRecords } from '../schemas/records';

export const listingNames = ['users', 'students', 'teachers', 'orgs', 'roleless-people'] as const;
export type ListingName = (typeof listingNames)[number];

/** A record's place in a listing: the listing, and the entity id it is sorted by. */
export interface ListingEntry {
  listing: ListingName;
  entityId: string;
}

/** The listing an entity is in: organisations; persons with a role (users); persons without one. */
export const entityListing = (entity: Pick<Entity, 'entity_type' | 'roles'>): ListingName =>
  entity.entity_type === 'organisation' ? 'orgs' : entity.roles.length > 0 ? 'users' : 'roleless-people';

/** The listing a record is in, if any: entities by kind, and the student and teacher role records. */
export function listingOf<G extends RecordGroup>(
  group: G,
  record: GroupRecords[G],
): ListingEntry | undefined {
  switch (group) {
    case 'entities': {
      const entity = record as Entity;
      return { listing: entityListing(entity), entityId: entity.entity_id };
    }
    case 'students':
    case 'teachers':
      return { listing: group, entityId: (record as GroupRecords['students']).entity_id };
    default:
      return undefined;
  }
}
