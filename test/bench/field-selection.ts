// Section 6, field selection: what `fields=` saves on a page of students (the default 50), over HTTP
// through the whole local stack: the bytes of the body and the latency, for the whole records, every
// field but `photobase64`, and a roster of names. Measured twice: on the demo students as seeded, whose
// photos are tiny, then with the page's students given ID photos of the size schools keep
// (test/bench/id-photos.ts), which are put back as they were afterwards so later sections read the demo
// data. The variants are sent in turn, sample by sample, so a busy spell on the machine weighs on each alike.
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { recordFields } from '../../shared/domain/record-fields';
import { PAGE_ITEMS } from './bare-calls';
import type { HttpClient } from './http-client';
import { idPhoto } from './id-photos';
import { latency, round, timed } from './stats';
import type { Workload } from './workload';

export type FieldDataset = 'demo students' | 'with ID photos';

export interface FieldSelection {
  /** Absent from runs made before the page was also measured with ID photos: the demo students. */
  dataset?: FieldDataset;
  variant: string;
  fields: string | undefined;
  bytes: number;
  p50Ms: number;
  p95Ms: number;
}

export const FIELD_VARIANTS: { variant: string; fields: string | undefined }[] = [
  { variant: 'whole records', fields: undefined },
  {
    variant: 'every field but photobase64',
    fields: recordFields.students.filter((name) => name !== 'photobase64').join(','),
  },
  { variant: 'a roster', fields: 'processnumber,name,email,ative' },
];

async function measureVariants(
  dataset: FieldDataset,
  work: Workload,
  client: HttpClient,
  samples: number,
): Promise<FieldSelection[]> {
  const paths = FIELD_VARIANTS.map(
    ({ fields }) => `/api/students?items_per_page=${PAGE_ITEMS}${fields ? `&fields=${fields}` : ''}`,
  );
  const bytes = await Promise.all(
    paths.map(async (path) => Buffer.byteLength(await client.send(path, { headers: work.headers }))),
  );
  const times: number[][] = paths.map(() => []);
  for (let i = 0; i < samples; i++) {
    for (const [v, path] of paths.entries())
      times[v]?.push(await timed(() => client.send(path, { headers: work.headers })));
  }
  return FIELD_VARIANTS.map(({ variant, fields }, v) => {
    const { p50, p95 } = latency(times[v] ?? []);
    return { dataset, variant, fields, bytes: bytes[v] ?? 0, p50Ms: round(p50, 1), p95Ms: round(p95, 1) };
  });
}

/** Gives the students of the measured page ID photos, and returns how to put them back as they were. */
async function withIdPhotos(db: DynamoDBDocumentClient, tableName: string, work: Workload) {
  const { Items = [] } = (await work.query()) as { Items?: Record<string, unknown>[] };
  const page = Items.slice(0, PAGE_ITEMS);
  const put = (Item: Record<string, unknown>) => db.send(new PutCommand({ TableName: tableName, Item }));
  await Promise.all(page.map((item, i) => put({ ...item, photobase64: idPhoto(i) })));
  return () => Promise.all(page.map(put));
}

export async function measureFieldSelection(
  work: Workload,
  client: HttpClient,
  samples: number,
  db: DynamoDBDocumentClient,
  tableName: string,
): Promise<FieldSelection[]> {
  const demo = await measureVariants('demo students', work, client, samples);
  const restore = await withIdPhotos(db, tableName, work);
  try {
    return [...demo, ...(await measureVariants('with ID photos', work, client, samples))];
  } finally {
    await restore();
  }
}
