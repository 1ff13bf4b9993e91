// Section 6, field selection: what `fields=` saves on a page of students (the default 50) from the
// demo tenant, over HTTP through the whole local stack: the bytes of the body and the latency, for the
// whole records, every field but `photobase64`, and a roster of names. The variants are sent in turn,
// sample by sample, so a busy spell on the machine weighs on each alike.
import { recordFields } from '../../shared/domain/record-fields';
import type { HttpClient } from './http-client';
import { latency, round, timed } from './stats';
import { PAGE_ITEMS, type Workload } from './workload';

export interface FieldSelection {
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

export async function measureFieldSelection(
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
    return { variant, fields, bytes: bytes[v] ?? 0, p50Ms: round(p50, 1), p95Ms: round(p95, 1) };
  });
}
