import { describe, expect, it } from 'vitest';
import { QUOTE_LENGTH, quote } from './quote';

describe('quoting what a client sent', () => {
  it('keeps a short value whole', () => {
    expect(quote('')).toBe('');
    expect(quote('x'.repeat(QUOTE_LENGTH))).toBe('x'.repeat(QUOTE_LENGTH));
  });

  it('cuts a long value to its prefix and marks the cut', () => {
    expect(quote('x'.repeat(380_000))).toBe(`${'x'.repeat(QUOTE_LENGTH)}…`);
  });

  it('never ends on half of a character outside the basic plane', () => {
    const sent = `${'x'.repeat(QUOTE_LENGTH - 1)}${'😀'.repeat(10)}`;
    expect(quote(sent)).toBe(`${'x'.repeat(QUOTE_LENGTH - 1)}…`);
  });
});
