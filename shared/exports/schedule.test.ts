// The export schedule: crontab patterns in UTC, refused when EventBridge could not run them, and
// translated to EventBridge's cron fields (named week days, one of day and week day).
import { describe, expect, it } from 'vitest';
import { eventBridgeCron, scheduleProblem } from './schedule';

describe('export schedules', () => {
  it('accepts daily, weekly and monthly patterns', () => {
    for (const pattern of ['0 2 * * *', '30 1 * * 1-5', '15 3 1 * *', '0 */6 * * *', '0 4 * 1,7 sun'])
      expect(scheduleProblem(pattern), pattern).toBeUndefined();
  });

  it('refuses patterns that are not five fields, run more than hourly, or cannot be run', () => {
    expect(scheduleProblem('0 2 * *')).toContain('five fields');
    expect(scheduleProblem('* 2 * * *')).toContain('minute must be one number');
    expect(scheduleProblem('0 2 1 * 1')).toContain('not both');
    expect(scheduleProblem('0 2 * * L')).toContain('day-of-week');
    expect(scheduleProblem('0 24 * * *')).toBeDefined();
  });

  it("gives EventBridge's fields, naming the week days it numbers from 1", () => {
    expect(eventBridgeCron('0 2 * * *')).toEqual({ minute: '0', hour: '2', month: '*' });
    expect(eventBridgeCron('30 1 * * 1-5')).toEqual({
      minute: '30',
      hour: '1',
      month: '*',
      weekDay: 'MON-FRI',
    });
    expect(eventBridgeCron('0 3 * * 0,7')).toMatchObject({ weekDay: 'SUN,SUN' });
    expect(eventBridgeCron('15 3 1 * *')).toEqual({ minute: '15', hour: '3', month: '*', day: '1' });
    expect(() => eventBridgeCron('bad')).toThrow('Invalid export schedule');
  });
});
