import { describe, expect, it } from 'vitest';
import { isValidCitizenCard, isValidIban } from '../../../shared/domain/identifiers';
import { recordSchemas } from '../../../shared/schemas/records';
import { demoTenant } from './demo-tenant';

const records = demoTenant();
const of = (group: string) =>
  records.filter((r) => r.group === group).map((r) => r.record as Record<string, unknown>);

describe('the demo tenant (contract section 1)', () => {
  it('has at least the contracted number of records in each group', () => {
    expect(of('students').length).toBeGreaterThanOrEqual(120);
    expect(of('teachers').length).toBeGreaterThanOrEqual(25);
    expect(of('tutors').length).toBeGreaterThanOrEqual(60);
    expect(of('staffs').length).toBeGreaterThanOrEqual(15);
    expect(of('entities').filter((e) => e.entity_type === 'organisation').length).toBeGreaterThan(0);
  });

  it('is the same on every run', () => {
    expect(demoTenant()).toEqual(records);
  });

  it('matches the record schemas, with every list filled in for students and teachers', () => {
    for (const { group, record } of records) {
      expect(recordSchemas[group].safeParse(record).error).toBeUndefined();
    }
    for (const person of [...of('students'), ...of('teachers')]) {
      for (const list of ['addresses', 'contacts', 'documents', 'bankAccounts']) {
        expect((person[list] as unknown[]).length).toBeGreaterThan(0);
      }
    }
  });

  it('has valid IBANs and citizen card numbers, unique ids, and both empty and real photos', () => {
    const people = [...of('students'), ...of('teachers'), ...of('tutors'), ...of('staffs')];
    for (const p of people) {
      for (const account of p.bankAccounts as { back_account_number: string }[]) {
        expect(isValidIban(account.back_account_number)).toBe(true);
      }
      for (const doc of p.documents as {
        identification_document_type_name: string;
        identification_document_value: string;
      }[]) {
        if (doc.identification_document_type_name === 'NationalID') {
          expect(isValidCitizenCard(doc.identification_document_value)).toBe(true);
        }
      }
    }
    const photos = people.map((p) => p.photobase64 as string);
    expect(photos.filter((p) => p === '').length).toBeGreaterThan(10);
    expect(photos.filter((p) => p.startsWith('iVBORw0KGgo')).length).toBeGreaterThan(10);
    const ids = records.map(({ group, record }) => `${group}:${JSON.stringify(record).slice(0, 60)}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('links every role to its entity and every tutor to existing students', () => {
    const entities = new Map(of('entities').map((e) => [e.entity_id, e]));
    const studentIds = new Set(of('students').map((s) => s.student_id));
    for (const group of ['students', 'teachers', 'tutors', 'staffs'] as const) {
      for (const record of of(group)) {
        const entity = entities.get(record.entity_id) as { roles: { id: string }[] } | undefined;
        expect(entity?.roles.map((role) => role.id)).toContain(record[`${group.slice(0, -1)}_id`]);
      }
    }
    for (const tutor of of('tutors')) {
      for (const id of tutor.student_ids as string[]) expect(studentIds.has(id)).toBe(true);
    }
    const teacherTutors = of('entities').filter((e) => {
      const roles = (e.roles as { role: string }[]).map((role) => role.role);
      return roles.includes('teacher') && roles.includes('tutor');
    });
    expect(teacherTutors.length).toBeGreaterThan(0);
  });
});
