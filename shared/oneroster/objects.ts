// The OneRoster 1.2 objects (Rostering service model) made from the native records. A user is a person
// entity and an org an organisation entity, so every sourcedId is the native entity_id, and a user's
// demographics share its sourcedId, as the binding asks. docs/oneroster.md lists each field's source.
import type { Entity, EntityRole, Staff, Student, Teacher, Tutor } from '../schemas/records';

/** A reference to another object (GUIDRef), with the address it is read at. */
export interface GuidRef<T extends string> {
  href: string;
  sourcedId: string;
  type: T;
}

export interface OneRosterRole {
  roleType: 'primary' | 'secondary';
  role: string;
  org: GuidRef<'org'>;
}

export interface OneRosterUser {
  sourcedId: string;
  status: 'active';
  dateLastModified: string;
  userIds: { type: string; identifier: string }[];
  enabledUser: 'true' | 'false';
  givenName: string;
  familyName: string;
  roles: OneRosterRole[];
  primaryOrg: GuidRef<'org'>;
  email: string;
}

export interface OneRosterOrg {
  sourcedId: string;
  status: 'active';
  dateLastModified: string;
  name: string;
  type: string;
  identifier: string;
  parent?: GuidRef<'org'>;
  children: GuidRef<'org'>[];
}

export interface OneRosterDemographics {
  sourcedId: string;
  status: 'active';
  dateLastModified: string;
  birthDate: string;
  sex: 'male' | 'female' | 'unspecified';
  cityOfBirth: string;
}

/** The native fields an organisation entity carries in the rostering model (absent on older ones). */
interface OrgFields {
  org_type?: string | null;
  parent_id?: string | null;
}

/** Which native role is which OneRoster role: a tutor is a student's guardian; staff have no role of their own. */
export const oneRosterRoles: Record<EntityRole['role'], string> = {
  student: 'student',
  teacher: 'teacher',
  tutor: 'guardian',
  staff: 'ext:staff',
};

/** Where the binding's objects are read: `<base>/ims/oneroster/rostering/v1p2`. */
export const ROSTERING_PATH = '/ims/oneroster/rostering/v1p2';

export class ObjectMaker {
  constructor(
    /** The service's base address, for the href of references. */
    private readonly baseUrl: string,
    /**
     * The org every role is at: the tenant's root organisation (no parent; a district first). Persons are
     * not tied to schools natively until enrollments do it.
     */
    private readonly homeOrgId: string,
  ) {}

  orgRef(id: string): GuidRef<'org'> {
    return { href: `${this.baseUrl}${ROSTERING_PATH}/orgs/${id}`, sourcedId: id, type: 'org' };
  }

  user(entity: Entity): OneRosterUser {
    const [givenName = '', ...family] = entity.name.trim().split(/\s+/);
    const org = this.orgRef(this.homeOrgId);
    return {
      sourcedId: entity.entity_id,
      status: 'active',
      dateLastModified: entity.updated_at,
      userIds: entity.roles.map(({ role, id }) => ({ type: `${role}_id`, identifier: id })),
      enabledUser: 'true',
      givenName,
      familyName: family.join(' '),
      roles: entity.roles.map(({ role }, i) => ({
        roleType: i === 0 ? 'primary' : 'secondary',
        role: oneRosterRoles[role],
        org,
      })),
      primaryOrg: org,
      email: entity.email,
    };
  }

  /** An organisation, with the children that name it as their parent among `all`. */
  org(entity: Entity, all: readonly Entity[]): OneRosterOrg {
    const { org_type, parent_id } = entity as Entity & OrgFields;
    const children = all
      .filter((e) => (e as Entity & OrgFields).parent_id === entity.entity_id)
      .map((e) => this.orgRef(e.entity_id));
    return {
      sourcedId: entity.entity_id,
      status: 'active',
      dateLastModified: entity.updated_at,
      name: entity.name,
      type: org_type ?? 'ext:unspecified',
      identifier: '',
      ...(parent_id ? { parent: this.orgRef(parent_id) } : {}),
      children,
    };
  }

  /** A person's demographics, from the record of their first role (where birth date and gender live). */
  demographics(entity: Entity, person: Student | Teacher | Tutor | Staff): OneRosterDemographics {
    const gender = person.gender.toLowerCase();
    return {
      sourcedId: entity.entity_id,
      status: 'active',
      dateLastModified: [entity.updated_at, person.updated_at].sort()[1] as string,
      birthDate: person.birth_date,
      sex: gender === 'male' || gender === 'female' ? gender : 'unspecified',
      cityOfBirth: person.naturality,
    };
  }
}

/** The field names of each kind of object, for checking `fields`, `sort` and `filter`. */
export const objectFields = {
  users: [
    'sourcedId',
    'status',
    'dateLastModified',
    'userIds',
    'enabledUser',
    'givenName',
    'familyName',
    'roles',
    'primaryOrg',
    'email',
  ],
  orgs: ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parent', 'children'],
  demographics: ['sourcedId', 'status', 'dateLastModified', 'birthDate', 'sex', 'cityOfBirth'],
} as const satisfies Record<string, readonly string[]>;

/** The tenant's root organisation: one without a parent, a district first, then the lowest id. */
export function rootOrganisation(entities: readonly Entity[]): Entity | undefined {
  const roots = entities.filter(
    (e) => e.entity_type === 'organisation' && !(e as Entity & OrgFields).parent_id,
  );
  return (
    roots.find((e) => (e as Entity & OrgFields).org_type === 'district') ??
    [...roots].sort((a, b) => (a.entity_id < b.entity_id ? -1 : 1))[0]
  );
}
