// The OneRoster 1.2 Rostering REST binding's read operations, as rows of the route table
// (shared/routes.ts): each under /ims/oneroster/rostering/v1p2, in the `oneroster` area, with the
// binding's scopes and imsx_StatusInfo errors.
import { keys } from '../data/keys';
import { oneRosterScopes, type RoleGroup } from '../domain/groups';
import type { Route } from '../routes';
import { collectionParameters } from './collection-query';
import { ROSTERING_PATH } from './objects';

/** Core collections take roster-core.readonly or roster.readonly (binding section 4). */
const core = { kind: 'scope', scope: oneRosterScopes.core, or: oneRosterScopes.roster } as const;
const demographics = { kind: 'scope', scope: oneRosterScopes.demographics } as const;

/** Users and orgs are entities, read whole (the counter bounds the read). */
const entityReads = [keys.recordPartition('entities'), keys.counterPartition];
/** A list of users reads only the changed entities, from the changes index, for `dateLastModified>`. */
const userReads = [...entityReads, keys.changePartition('entities')];
const personGroups: RoleGroup[] = ['students', 'teachers', 'tutors', 'staffs'];

/** A collection and its single-object read: `GET <path>` and `GET <path>/{sourcedId}`. */
function collection(name: string, single: string, auth: Route['auth'], reads: readonly string[]): Route[] {
  const base = { auth, access: 'read', reads, writes: [], imsxErrors: true } as const;
  return [
    {
      ...base,
      id: `list-oneroster-${name}`,
      method: 'GET',
      path: `${ROSTERING_PATH}/${name}`,
      handler: `oneroster/list-${name}`,
      query: collectionParameters,
    },
    {
      ...base,
      id: `get-oneroster-${single}`,
      method: 'GET',
      path: `${ROSTERING_PATH}/${name}/{sourcedId}`,
      handler: `oneroster/get-${single}`,
      query: ['fields'],
    },
  ];
}

export const oneRosterRoutes: Route[] = [
  ...collection('users', 'user', core, userReads),
  ...collection('students', 'student', core, userReads),
  ...collection('teachers', 'teacher', core, userReads),
  ...collection('orgs', 'org', core, entityReads),
  ...collection('schools', 'school', core, entityReads),
  ...collection('demographics', 'demographics', demographics, [
    ...entityReads,
    ...personGroups.map(keys.recordPartition),
  ]),
];
