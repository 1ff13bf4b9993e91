// What a write changes in the gradebook's tallies (tallies.ts): a record counts by what it holds, on the
// record that keeps its group's tally, and a replace moves only what changed.
import { describe, expect, it } from 'vitest';
import { countsOf, tallyChange, tallyKeeper } from './tallies';

const result = (fields: object) => ({
  line_item_id: 'item',
  student_id: 'student',
  status: 'fully graded',
  score: 15,
  text_score: null,
  ...fields,
});

const mark = (fields: object) => ({
  student_id: 's',
  class_id: 'c',
  date: '2026-10-05',
  status: 'present',
  ...fields,
});

const asObject = (change: Map<string, number>) => Object.fromEntries(change);

describe('tallyChange', () => {
  it("counts a new result's status and score, and takes them away when it is deleted", () => {
    expect(asObject(tallyChange('results', undefined, result({})))).toEqual({
      '_tally#status#fully graded': 1,
      '_tally#score#15': 1,
    });
    expect(asObject(tallyChange('results', result({ text_score: 'B' }), undefined))).toEqual({
      '_tally#status#fully graded': -1,
      '_tally#score#15': -1,
      '_tally#text#B': -1,
    });
  });

  it('moves only what a replace changed, and counts no score of an exempt result', () => {
    expect(asObject(tallyChange('results', result({}), result({ score: 17 })))).toEqual({
      '_tally#score#15': -1,
      '_tally#score#17': 1,
    });
    expect(asObject(tallyChange('results', result({}), result({ comment: 'x' })))).toEqual({});
    expect(asObject(tallyChange('results', result({}), result({ status: 'exempt' })))).toEqual({
      '_tally#status#fully graded': -1,
      '_tally#status#exempt': 1,
      '_tally#score#15': -1,
    });
  });

  it("counts a class mark under its class, a whole day's under its month", () => {
    expect(asObject(tallyChange('attendance', undefined, mark({})))).toEqual({ '_tally#class#c#present': 1 });
    expect(
      asObject(
        tallyChange('attendance', mark({ class_id: null }), mark({ class_id: null, status: 'absent' })),
      ),
    ).toEqual({ '_tally#day#2026-10#present': -1, '_tally#day#2026-10#absent': 1 });
  });

  it('is kept by the line item for results and by the student for attendance, and by nothing for other groups', () => {
    expect(tallyKeeper('results')).toMatchObject({ field: 'line_item_id', group: 'line_items' });
    expect(tallyKeeper('attendance')).toMatchObject({ field: 'student_id', group: 'students' });
    expect(tallyKeeper('line_items')).toBeUndefined();
    expect(tallyChange('line_items', undefined, { line_item_id: 'x' }).size).toBe(0);
  });
});

describe('countsOf', () => {
  it("reads a keeping record's counts under a prefix, leaving out those at zero and other attributes", () => {
    const item = {
      title: 'Teste',
      '_tally#score#15': 2,
      '_tally#score#9': 1,
      '_tally#score#3': 0,
      '_tally#status#fully graded': 3,
      _refs: 3,
    };
    expect(Object.fromEntries(countsOf(item, 'score'))).toEqual({ '15': 2, '9': 1 });
    expect(Object.fromEntries(countsOf(item, 'status'))).toEqual({ 'fully graded': 3 });
  });
});
