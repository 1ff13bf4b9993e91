// Reading back the gzipped NDJSON an export run writes: the run checks what it stored, the CSV and OneRoster
// files are made from it, and verify-export re-reads it, so it stands apart from all three.
import type { Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

/** The lines of a gzipped NDJSON stream, hashing the compressed bytes as they are read. */
export async function* ndjsonLines(compressed: Readable, digest?: Transform): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const stages = digest ? [digest, gunzip] : [gunzip];
  let upstream: Readable = compressed;
  for (const stage of stages) {
    upstream.once('error', (error) => gunzip.destroy(error));
    upstream = upstream.pipe(stage);
  }
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) yield line;
  }
  rest += decoder.end();
  if (rest) yield rest;
}
