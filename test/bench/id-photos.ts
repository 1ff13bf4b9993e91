// Stand-ins for school ID photos, for the field-selection benchmark: the demo tenant's photos are tiny,
// and a roster pull's savings show only with photos of the size schools keep. Each is a JPEG-shaped
// payload of 15 to 40 KB (start-of-image and JFIF header, then bytes as incompressible as JPEG's
// entropy-coded data, then end-of-image), derived from its index by SHA-256, so every run sends the
// same bytes. Base64, as `photobase64` holds them.
import { createHash } from 'node:crypto';

const MIN_BYTES = 15 * 1024;
const SPREAD_BYTES = 25 * 1024;

/** SOI, then an APP0 segment: JFIF 1.1, no units, 1:1 density, no thumbnail. */
const JPEG_HEAD = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00,
]);
const JPEG_END = Buffer.from([0xff, 0xd9]);

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The photo of the index-th student: the same bytes for the same index, 15 to 40 KB. */
export function idPhoto(index: number): string {
  const size = MIN_BYTES + (digest(`id-photo-size-${index}`).readUInt32BE(0) % SPREAD_BYTES);
  const bodyBytes = size - JPEG_HEAD.length - JPEG_END.length;
  const blocks = Array.from({ length: Math.ceil(bodyBytes / 32) }, (_, block) =>
    digest(`id-photo-${index}-${block}`),
  );
  return Buffer.concat([JPEG_HEAD, Buffer.concat(blocks).subarray(0, bodyBytes), JPEG_END]).toString(
    'base64',
  );
}
