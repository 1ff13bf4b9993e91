import { describe, expect, it } from 'vitest';
import { BadRequestError } from './errors';
import { matches, notModified, parseEntityTags } from './preconditions';

describe('entity tags (issue: writing records, deliverable 4)', () => {
  it('parses If-Match lists, * and weak tags', () => {
    expect(parseEntityTags('if-match', undefined)).toBeUndefined();
    expect(parseEntityTags('if-match', '*')).toEqual({ any: true });
    expect(parseEntityTags('if-match', '"3"')).toEqual({ any: false, versions: [3] });
    expect(parseEntityTags('if-match', '"3", W/"4", "x"')).toEqual({ any: false, versions: [3] });
    expect(() => parseEntityTags('if-match', '3')).toThrow(BadRequestError);
    expect(() => parseEntityTags('if-match', '"3')).toThrow(BadRequestError);
  });

  it('matches strongly for If-Match and weakly for If-None-Match', () => {
    expect(matches({ any: false, versions: [3] }, 3)).toBe(true);
    expect(matches({ any: false, versions: [3] }, 4)).toBe(false);
    expect(matches({ any: true }, 9)).toBe(true);
    expect(notModified('W/"3"', 3)).toBe(true);
    expect(notModified('"2", "3"', 3)).toBe(true);
    expect(notModified('"2"', 3)).toBe(false);
    expect(notModified(undefined, 3)).toBe(false);
  });
});
