// The export schedule of a tenant: a five-field crontab pattern in UTC (minute hour day month weekday),
// checked once for both places that run it: EventBridge in the tenant stack and croner in the local run.
import { Cron } from 'croner';

export interface EventBridgeCron {
  minute: string;
  hour: string;
  day?: string;
  month: string;
  weekDay?: string;
}

const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
const listOf = (item: string) => new RegExp(`^(${item})(,(${item}))*$`);
const numbers = listOf('\\*(/\\d{1,2})?|\\d{1,2}(-\\d{1,2})?(/\\d{1,2})?');
const weekdays = listOf('(\\d|SUN|MON|TUE|WED|THU|FRI|SAT)(-(\\d|SUN|MON|TUE|WED|THU|FRI|SAT))?');

/** Why a pattern cannot be a tenant's export schedule, or undefined when it can. */
export function scheduleProblem(pattern: string): string | undefined {
  const fields = pattern.trim().split(/\s+/);
  if (fields.length !== 5) return 'five fields: minute hour day-of-month month day-of-week (UTC)';
  const [minute, hour, day, month, weekDay] = fields as [string, string, string, string, string];
  // A run takes minutes; one at a fixed minute keeps runs an hour apart at least.
  if (!/^\d{1,2}$/.test(minute) || Number(minute) > 59) return 'the minute must be one number, 0 to 59';
  for (const [name, value] of [
    ['hour', hour],
    ['day-of-month', day],
    ['month', month],
  ] as const) {
    if (!numbers.test(value)) return `the ${name} field takes numbers, ranges, lists, steps or *`;
  }
  if (weekDay !== '*' && !weekdays.test(weekDay.toUpperCase()))
    return 'the day-of-week field takes 0 to 7 (0 and 7 are Sunday), SUN to SAT, ranges and lists, or *';
  if (day !== '*' && weekDay !== '*')
    return 'set the day of month or the day of week, not both (EventBridge cannot combine them)';
  try {
    new Cron(pattern, { paused: true, timezone: 'Etc/UTC' }).stop();
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

/** The same schedule in EventBridge's terms, whose days of the week are named (SUN=1, not 0). */
export function eventBridgeCron(pattern: string): EventBridgeCron {
  const problem = scheduleProblem(pattern);
  if (problem) throw new Error(`Invalid export schedule "${pattern}": ${problem}`);
  const [minute, hour, day, month, weekDay] = pattern.trim().split(/\s+/) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const named = weekDay.toUpperCase().replace(/\d/g, (n) => WEEKDAYS[Number(n) % 7] as string);
  return {
    minute,
    hour,
    month,
    ...(day === '*' ? {} : { day }),
    ...(weekDay === '*' ? {} : { weekDay: named }),
  };
}
