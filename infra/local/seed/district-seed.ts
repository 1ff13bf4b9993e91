// Seeds a generated district (district-roster.ts) for `DEMO_SIZE=district` or a number of students:
// its OneRoster zip loaded through the import's own bulk path, as a district's zip would be. The import
// resumes where it stopped, so a start stopped part-way goes on with the rest at the next start.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RecordRepository } from '../../../shared/data/record-repository';
import { ImportWriter } from '../../cli/import-writer';
import { SourcedIds } from '../../cli/oneroster-ids';
import { importOneRoster } from '../../cli/oneroster-import';
import { districtOf, districtRosterZip, recordsOf } from './district-roster';

/** How many students `DEMO_SIZE=district` means: a district of a few schools, seeded in minutes. */
export const DISTRICT_STUDENTS = 5000;

/** Batches written at once, as the import's default. */
const CONCURRENCY = 8;

export async function seedDistrict(
  db: DynamoDBDocumentClient,
  tableName: string,
  tenantId: string,
  students: number,
  report: (line: string) => void,
): Promise<void> {
  const size = districtOf(students);
  report(
    `Seeding a generated district of ${students} students (${recordsOf(size)} records: ${size.schools} schools, ${size.teachers} teachers, ${size.guardians} guardians, ${size.classes} classes), progress below`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'school-district-'));
  try {
    const zip = join(dir, 'district.zip');
    writeFileSync(zip, districtRosterZip(size));
    const records = new RecordRepository(db, tableName);
    const writer = new ImportWriter(db, tableName, records);
    const { tables } = await importOneRoster(zip, new SourcedIds(tenantId), records, writer, CONCURRENCY);
    const refused = tables.flatMap(({ table, refused }) => refused.map((r) => `${table}.csv line ${r.line}`));
    if (refused.length > 0) throw new Error(`The generated district was refused at ${refused.join(', ')}.`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
