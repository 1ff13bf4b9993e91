// Small real PNG images for demo photos: a symmetric 8x8 identicon scaled to 32x32, encoded by hand
// with zlib so no image library is needed.
import { crc32, deflateSync } from 'node:zlib';
import type { Random } from './random';

const SIZE = 32;
const CELL = 4;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function avatarPng(random: Random): Buffer {
  const hue = random.int(0, 359);
  const fg = hslToRgb(hue, 0.55, 0.45);
  const bg: [number, number, number] = [240, 240, 240];
  const cells: boolean[][] = Array.from({ length: 8 }, () => {
    const half = Array.from({ length: 4 }, () => random.chance(0.5));
    return [...half, ...half.slice().reverse()];
  });
  const rows: Buffer[] = [];
  for (let y = 0; y < SIZE; y++) {
    const row = Buffer.alloc(1 + SIZE * 3);
    for (let x = 0; x < SIZE; x++) {
      const [r, g, b] = cells[Math.floor(y / CELL)]?.[Math.floor(x / CELL)] ? fg : bg;
      row.writeUInt8(r, 1 + x * 3);
      row.writeUInt8(g, 2 + x * 3);
      row.writeUInt8(b, 3 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
