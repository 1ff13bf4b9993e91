// The fields of each group's records in the specification's order, which responses keep (DynamoDB keeps
// no order). Plain lists, so reading a record needs no schema; a test holds them to the record schemas.
import type { RecordGroup } from './groups';

const personFields = [
  'processnumber',
  'ative',
  'email',
  'name',
  'gender',
  'photobase64',
  'birth_date',
  'naturality',
  'nationality',
  'marital_status',
  'deceased',
  'addresses',
  'contacts',
  'documents',
  'bankAccounts',
  'entity_id',
  'created_at',
  'updated_at',
] as const;

export const recordFields: Record<RecordGroup, readonly string[]> = {
  entities: [
    'entity_id',
    'entity_type',
    'name',
    'email',
    'addresses',
    'contacts',
    'documents',
    'bankAccounts',
    'roles',
    'created_at',
    'updated_at',
  ],
  students: ['student_id', ...personFields],
  teachers: ['teacher_id', ...personFields],
  tutors: ['tutor_id', 'student_ids', ...personFields],
  staffs: ['staff_id', ...personFields],
};
