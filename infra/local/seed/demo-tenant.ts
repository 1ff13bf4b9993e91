// The demo tenant's records: families of students and their tutors, teachers (some of them tutors
// too), staff, the organisations around a school group in Porto, and the group's schools, school year,
// courses, classes and enrollments (rostering.ts). Deterministic for a given seed.
import type { NewRecord } from '../../../shared/data/seed-records';
import { citizenCardNumber, iban, nifCheckDigit, portugueseNib } from '../../../shared/domain/identifiers';
import type {
  Address,
  BankAccount,
  Class,
  Contact,
  Entity,
  EntityRole,
  IdentificationDocument,
  ScoreScale,
  Staff,
  Student,
  Teacher,
  Tutor,
} from '../../../shared/schemas/records';
import { demoAttendance } from './attendance';
import { avatarPng } from './avatar';
import { demoAssessments, demoClassScale, demoGradebook } from './gradebook';
import { Random } from './random';
import { demoRoster } from './rostering';
import {
  adultMaritalStatuses,
  floors,
  foreignOrigins,
  localities,
  type Origin,
  organisations,
  portuguese,
  portugueseBanks,
} from './vocabulary';

export const DEMO_SEED = 20260901;
const FAMILIES = 95;
const TEACHERS_WITHOUT_CHILDREN = 27;
const PARENTS_WHO_TEACH = 3;
const STAFFS = 18;
const SCHOOL_DOMAIN = 'aedemo.example';
const CREATED_FROM = Date.parse('2026-09-01T08:00:00.000Z');

interface Person {
  entity_id: string;
  name: string;
  email: string;
  gender: string;
  photobase64: string;
  birth_date: string;
  naturality: string;
  nationality: string;
  marital_status: string;
  deceased: boolean;
  addresses: Address[];
  contacts: Contact[];
  documents: IdentificationDocument[];
  bankAccounts: BankAccount[];
}

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

const addYears = (date: string, years: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};

export function demoTenant(seed = DEMO_SEED): NewRecord[] {
  const r = new Random(seed);
  let clock = CREATED_FROM;
  const stamp = () => {
    clock += r.int(20, 90) * 1000;
    const at = new Date(clock).toISOString();
    return { created_at: at, updated_at: at };
  };
  const usedEmails = new Set<string>();
  const email = (given: string, family: string, domain: string) => {
    const base = `${ascii(given)}.${ascii(family)}`;
    let candidate = `${base}@${domain}`;
    for (let n = 2; usedEmails.has(candidate); n++) candidate = `${base}${n}@${domain}`;
    usedEmails.add(candidate);
    return candidate;
  };

  const address = (): Address => {
    const place = r.pick(localities);
    return {
      address: `${r.pick(place.streets)}, ${r.int(1, 980)}`,
      address2: r.pick(floors),
      zone_code: place.zone,
      postal_code: `${place.postal}-${String(r.int(1, 999)).padStart(3, '0')}`,
      city: place.city,
      country: 'Portugal',
    };
  };

  const bankAccount = (origin: Origin): BankAccount => {
    if (origin.nationality === 'Spanish' && r.chance(0.5)) {
      return {
        back_account_number: iban('ES', r.digits(20)),
        country_name: 'Spain',
        entity_bank_account_type: 'IBAN',
      };
    }
    if (origin.nationality === 'French' && r.chance(0.5)) {
      return {
        back_account_number: iban('FR', r.digits(23)),
        country_name: 'France',
        entity_bank_account_type: 'IBAN',
      };
    }
    const bank = r.pick(portugueseBanks);
    return {
      back_account_number: iban('PT', portugueseNib(bank.code, r.digits(4), r.digits(11))),
      country_name: 'Portugal',
      entity_bank_account_type: 'IBAN',
    };
  };

  const documents = (origin: Origin, minor: boolean): IdentificationDocument[] => {
    const years = minor ? 5 : 10;
    if (origin.citizen) {
      const init = r.date('2022-01-01', '2026-08-31');
      const version = `Z${r.pick(['Z', 'Y', 'X', 'W'])}`;
      return [
        {
          init_date: init,
          end_date: addYears(init, years),
          identification_document_value: citizenCardNumber(r.digits(8).replace(/^0/, '1'), version),
          identification_document_type_name: 'NationalID',
        },
      ];
    }
    const passportIssued = r.date('2021-06-01', '2026-06-30');
    const permitIssued = r.date('2024-09-01', '2026-08-31');
    const letters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
    return [
      {
        init_date: passportIssued,
        end_date: addYears(passportIssued, years),
        identification_document_value: `${r.pick([...letters])}${r.pick([...letters])}${r.digits(7)}`,
        identification_document_type_name: 'Passport',
      },
      {
        init_date: permitIssued,
        end_date: addYears(permitIssued, 2),
        identification_document_value: `P${r.digits(9)}`,
        identification_document_type_name: 'ResidencePermit',
      },
    ];
  };

  const mobile = () => `+351 9${r.pick(['1', '2', '3', '6'])}${r.digits(1)} ${r.digits(3)} ${r.digits(3)}`;

  const person = (p: {
    origin: Origin;
    gender: 'Male' | 'Female';
    given: string;
    family: string;
    birthFrom: string;
    birthTo: string;
    emailDomain: string;
    home: Address;
    minor: boolean;
    withPhone: boolean;
  }): Person => {
    const mail = email(
      p.given.split(' ')[0] ?? p.given,
      p.family.split(' ').at(-1) ?? p.family,
      p.emailDomain,
    );
    return {
      entity_id: r.uuid(),
      name: `${p.given} ${p.family}`,
      email: mail,
      gender: p.gender,
      photobase64: r.chance(0.6) ? avatarPng(r).toString('base64') : '',
      birth_date: r.date(p.birthFrom, p.birthTo),
      naturality: r.pick(p.origin.birthplaces),
      nationality: p.origin.nationality,
      marital_status: p.minor ? 'single' : r.pick(adultMaritalStatuses),
      deceased: false,
      addresses: [p.home],
      contacts: [
        ...(p.withPhone ? [{ contact: mobile(), contact_type_name: 'Phone' }] : []),
        { contact: mail, contact_type_name: 'Email' },
      ],
      documents: documents(p.origin, p.minor),
      bankAccounts: [bankAccount(p.origin)],
    };
  };

  const entities = new Map<string, Entity>();
  const roleOf = (p: Person, role: EntityRole) => {
    let entity = entities.get(p.entity_id);
    if (!entity) {
      const { entity_id, name, email: mail, addresses, contacts, documents: docs, bankAccounts } = p;
      entity = {
        entity_id,
        entity_type: 'person',
        name,
        email: mail,
        addresses,
        contacts,
        documents: docs,
        bankAccounts,
        roles: [],
        ...stamp(),
      };
      entities.set(entity_id, entity);
    }
    entity.roles.push(role);
  };
  /** A role record's fields: the person's, with its processnumber and activity. */
  const personFields = (p: Person, processnumber: string, ative: boolean) => ({
    processnumber,
    ative,
    ...p,
    ...stamp(),
  });

  const students: Student[] = [];
  const teachers: Teacher[] = [];
  const tutors: Tutor[] = [];
  const staffs: Staff[] = [];
  const addTeacher = (p: Person) => {
    const teacher: Teacher = {
      teacher_id: r.uuid(),
      ...personFields(p, `D${String(101 + teachers.length)}`, r.chance(0.95)),
    };
    teachers.push(teacher);
    roleOf(p, { role: 'teacher', id: teacher.teacher_id });
  };
  const adult = (origin: Origin, gender: 'Male' | 'Female', family: string, domain: string, home: Address) =>
    person({
      origin,
      gender,
      given: r.pick(gender === 'Female' ? origin.female : origin.male),
      family,
      birthFrom: '1966-01-01',
      birthTo: '1994-12-31',
      emailDomain: domain,
      home,
      minor: false,
      withPhone: true,
    });

  for (let f = 0; f < FAMILIES; f++) {
    const origin = r.chance(0.78) ? portuguese : r.pick(foreignOrigins);
    const motherName = `${r.pick(origin.surnames)} ${r.pick(origin.surnames)}`;
    const fatherName = `${r.pick(origin.surnames)} ${r.pick(origin.surnames)}`;
    const home = address();
    const parents: Person[] = [
      adult(origin, 'Female', motherName, r.pick(['mail.example', 'correio.example']), home),
    ];
    if (r.chance(0.55) || f < 6) {
      const separated = r.chance(0.2);
      parents.push(
        adult(
          origin,
          'Male',
          fatherName,
          r.pick(['mail.example', 'correio.example']),
          separated ? address() : home,
        ),
      );
    }
    const childSurname = `${motherName.split(' ')[1]} ${fatherName.split(' ')[1]}`;
    const children = r.chance(0.5) ? 1 : r.chance(0.7) ? 2 : 3;
    const studentIds: string[] = [];
    for (let c = 0; c < children; c++) {
      const gender = r.chance(0.5) ? 'Female' : 'Male';
      const names = gender === 'Female' ? origin.female : origin.male;
      const given = r.chance(0.6) ? `${r.pick(names)} ${r.pick(names)}` : r.pick(names);
      const child = person({
        origin,
        gender,
        given: given.split(' ')[0] === given.split(' ')[1] ? r.pick(names) : given,
        family: childSurname,
        birthFrom: '2008-09-01',
        birthTo: '2020-08-31',
        emailDomain: `alunos.${SCHOOL_DOMAIN}`,
        home,
        minor: true,
        withPhone: false,
      });
      child.contacts = [
        ...(child.birth_date < '2014-01-01' ? [{ contact: mobile(), contact_type_name: 'Phone' }] : []),
        ...child.contacts,
      ];
      const student: Student = {
        student_id: r.uuid(),
        ...personFields(child, `A${String(20001 + students.length)}`, r.chance(0.93)),
      };
      students.push(student);
      studentIds.push(student.student_id);
      roleOf(child, { role: 'student', id: student.student_id });
    }
    const [first, second] = parents;
    if (first && second) {
      const together = first.addresses[0] === second.addresses[0];
      const status = together ? r.pick(['married', 'married', 'civil union']) : 'divorced';
      first.marital_status = status;
      second.marital_status = status;
      if (f === 5) {
        second.deceased = true;
        first.marital_status = 'widowed';
      }
    } else if (first) {
      first.marital_status = r.pick(['single', 'divorced', 'widowed']);
    }
    parents.forEach((parent, i) => {
      if (f < PARENTS_WHO_TEACH && i === 0) addTeacher(parent);
      const tutor: Tutor = {
        tutor_id: r.uuid(),
        student_ids: studentIds,
        ...personFields(parent, `E${String(1001 + tutors.length)}`, !parent.deceased),
      };
      tutors.push(tutor);
      roleOf(parent, { role: 'tutor', id: tutor.tutor_id });
    });
  }

  for (let t = 0; t < TEACHERS_WITHOUT_CHILDREN; t++) {
    const origin = r.chance(0.9) ? portuguese : r.pick(foreignOrigins);
    const gender = r.chance(0.7) ? 'Female' : 'Male';
    addTeacher(
      adult(
        origin,
        gender,
        `${r.pick(origin.surnames)} ${r.pick(origin.surnames)}`,
        SCHOOL_DOMAIN,
        address(),
      ),
    );
  }

  for (let s = 0; s < STAFFS; s++) {
    const origin = r.chance(0.85) ? portuguese : r.pick(foreignOrigins);
    const gender = r.chance(0.6) ? 'Female' : 'Male';
    const p = adult(
      origin,
      gender,
      `${r.pick(origin.surnames)} ${r.pick(origin.surnames)}`,
      SCHOOL_DOMAIN,
      address(),
    );
    const staff: Staff = { staff_id: r.uuid(), ...personFields(p, `F${String(201 + s)}`, r.chance(0.9)) };
    staffs.push(staff);
    roleOf(p, { role: 'staff', id: staff.staff_id });
  }

  const organisation = (name: string, domain: string, nifPrefix = '5'): Entity => {
    const founded = r.date('1950-01-01', '2015-12-31');
    const nif = `${nifPrefix}${r.digits(7)}`;
    const mail = `geral@${domain}`;
    const entity: Entity = {
      entity_id: r.uuid(),
      entity_type: 'organisation',
      name,
      email: mail,
      addresses: [address()],
      contacts: [
        { contact: `+351 22${r.digits(1)} ${r.digits(3)} ${r.digits(3)}`, contact_type_name: 'Phone' },
        { contact: mail, contact_type_name: 'Email' },
      ],
      documents: [
        {
          init_date: founded,
          end_date: '2099-12-31',
          identification_document_value: `${nif}${nifCheckDigit(nif)}`,
          identification_document_type_name: 'TaxID',
        },
      ],
      bankAccounts: [bankAccount(portuguese)],
      roles: [],
      ...stamp(),
    };
    entities.set(entity.entity_id, entity);
    return entity;
  };
  const [district, municipality] = organisations.map((org) =>
    organisation(org.name, org.domain, org.nifPrefix),
  );
  // The agrupamento is the district of the school group; the municipality is its local authority.
  Object.assign(district as Entity, { org_type: 'district', parent_id: null });
  Object.assign(municipality as Entity, { org_type: 'local', parent_id: null });
  const roster = demoRoster(r, district as Entity, students, teachers, organisation, stamp);
  for (const school of roster.schools) entities.set(school.entity_id, school);
  // Drawn after the roster, so every id drawn before it is the same as in a tenant seeded without it.
  const gradebook = demoGradebook(r, { ...roster, students }, stamp);
  const attendance = demoAttendance(r, { ...roster, entities: [...entities.values()], students }, stamp);
  const [firstClass] = [...roster.classes].sort((a, b) => (a.class_id < b.class_id ? -1 : 1));
  const classScale = demoClassScale(r, firstClass as Class, stamp);
  const assessments = demoAssessments(r, students, gradebook.scoreScales[1] as ScoreScale, stamp);

  return [
    ...[...entities.values()].map((record) => ({ group: 'entities' as const, record })),
    ...students.map((record) => ({ group: 'students' as const, record })),
    ...teachers.map((record) => ({ group: 'teachers' as const, record })),
    ...tutors.map((record) => ({ group: 'tutors' as const, record })),
    ...staffs.map((record) => ({ group: 'staffs' as const, record })),
    ...roster.sessions.map((record) => ({ group: 'academic_sessions' as const, record })),
    ...roster.courses.map((record) => ({ group: 'courses' as const, record })),
    ...roster.classes.map((record) => ({ group: 'classes' as const, record })),
    ...roster.enrollments.map((record) => ({ group: 'enrollments' as const, record })),
    ...gradebook.categories.map((record) => ({ group: 'categories' as const, record })),
    ...[...gradebook.scoreScales, classScale].map((record) => ({ group: 'score_scales' as const, record })),
    ...gradebook.lineItems.map((record) => ({ group: 'line_items' as const, record })),
    ...gradebook.results.map((record) => ({ group: 'results' as const, record })),
    ...attendance.map((record) => ({ group: 'attendance' as const, record })),
    ...assessments.assessmentLineItems.map((record) => ({ group: 'assessment_line_items' as const, record })),
    ...assessments.assessmentResults.map((record) => ({ group: 'assessment_results' as const, record })),
  ];
}
