// Field profiles as rules over field lists: inclusion and exclusion, the fields no profile removes, and
// the ready profiles, each of which names only fields that exist and removes none that must stay.
import { describe, expect, it } from 'vitest';
import { recordFields } from '../domain/record-fields';
import { profileFaults } from './client-admin';
import { allowedBy, hiddenRecordFields, readableRecordFields, readyProfiles } from './profiles';

describe('field profiles', () => {
  it('include, or exclude, and always keep the fixed fields, in the fields own order', () => {
    const all = ['id', 'name', 'email', 'photo'];
    expect(allowedBy({ include: ['photo', 'name'] }, all, ['id'])).toEqual(['id', 'name', 'photo']);
    expect(allowedBy({ exclude: ['photo', 'id'] }, all, ['id'])).toEqual(['id', 'name', 'email']);
    expect(allowedBy(undefined, all, ['id'])).toEqual(all);
  });

  it('leave a group no profile names whole, and hide from a named one what they do not read', () => {
    const profile = { records: { students: { include: ['name'] } } };
    expect(readableRecordFields(profile, 'teachers')).toEqual(recordFields.teachers);
    expect(hiddenRecordFields(profile, 'teachers')).toEqual([]);
    expect(readableRecordFields(profile, 'students')).toEqual([
      'student_id',
      'name',
      'entity_id',
      'created_at',
      'updated_at',
    ]);
  });

  it.each(Object.entries(readyProfiles))(
    '%s names only fields that exist, and removes none that must stay',
    (_name, profile) => {
      expect(profileFaults(profile)).toEqual([]);
    },
  );

  it('roster-basic keeps photos, documents, bank accounts and addresses from every person; transport adds addresses', () => {
    for (const group of ['students', 'teachers', 'tutors', 'staffs', 'entities'] as const) {
      const basic = hiddenRecordFields(readyProfiles['roster-basic'], group);
      expect(basic).toEqual(expect.arrayContaining(['documents', 'bankAccounts', 'addresses']));
      expect(hiddenRecordFields(readyProfiles.transport, group)).not.toContain('addresses');
    }
    expect(hiddenRecordFields(readyProfiles['roster-basic'], 'students')).toContain('photobase64');
  });
});
