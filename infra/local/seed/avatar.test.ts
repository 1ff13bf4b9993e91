import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { avatarPng } from './avatar';
import { Random } from './random';

describe('demo photos', () => {
  it('are real 32x32 RGB PNG files, the same for the same seed', () => {
    const png = avatarPng(new Random(7));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(32);
    expect(png.readUInt32BE(20)).toBe(32);
    const idatLength = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString('ascii')).toBe('IDAT');
    expect(inflateSync(png.subarray(41, 41 + idatLength)).length).toBe(32 * (1 + 32 * 3));
    expect(avatarPng(new Random(7))).toEqual(png);
    expect(png.length).toBeLessThan(400);
  });
});
