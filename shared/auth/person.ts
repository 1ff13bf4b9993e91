// A signed-in person as the service sees them: their account, their entity and the roles these give.
import type { User } from '../data/user-repository';
import type { Entity } from '../schemas/records';
import type { PersonRole } from './roles';

export interface Person {
  userId: string;
  entityId: string;
  roles: PersonRole[];
  /**
   * The sign-in the token comes from (its refresh-token family, the `sid` claim): revoking it refuses
   * the token where sign-ins are checked.
   */
  signIn?: string;
}

/** The roles of an account: one per kind of record its entity has, and admin for staff with admin rights. */
export function rolesOf(user: Pick<User, 'admin'>, entity: Pick<Entity, 'roles'> | undefined): PersonRole[] {
  const roles = new Set<PersonRole>((entity?.roles ?? []).map((r) => r.role));
  if (user.admin && roles.has('staff')) roles.add('admin');
  return [...roles].sort();
}
