import { describe, expect, it } from 'vitest';
import { recordGroups } from '../domain/groups';
import { recordFields } from '../domain/record-fields';
import { recordSchemas } from './records';

describe('record fields', () => {
  it.each(recordGroups)('of %s are the fields of its record schema, in its order', (group) => {
    expect(recordFields[group]).toEqual(Object.keys(recordSchemas[group].shape));
  });
});
