// Reads settings from the environment with plain checks, collecting every problem so a misconfigured
// function fails at start with one message naming each variable. Plain code rather than a schema
// library: every function parses its configuration at cold start, and this keeps that cheap.

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

export class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  private value(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  private problem<T>(name: string, message: string, fallback: T): T {
    this.problems.push(`${name}: ${message}`);
    return fallback;
  }

  /** A string that must be set, matching `pattern` when one is given (`expected` says what it must be). */
  text(
    name: string,
    check: { pattern?: RegExp; expected?: string; min?: number; max?: number } = {},
  ): string {
    const value = this.value(name);
    if (value === undefined) return this.problem(name, 'is required', '');
    return this.checked(name, value, check);
  }

  optionalText(name: string, check: { pattern?: RegExp; expected?: string } = {}): string | undefined {
    const value = this.value(name);
    return value === undefined ? undefined : this.checked(name, value, check);
  }

  private checked(
    name: string,
    value: string,
    {
      pattern,
      expected,
      min = 1,
      max = Number.POSITIVE_INFINITY,
    }: {
      pattern?: RegExp;
      expected?: string;
      min?: number;
      max?: number;
    },
  ): string {
    if (value.length < min || value.length > max)
      return this.problem(name, `must be ${min} to ${max} characters long`, value);
    if (pattern && !pattern.test(value)) return this.problem(name, `must be ${expected ?? pattern}`, value);
    return value;
  }

  /** An http(s) address, without a trailing slash. */
  url(name: string): string {
    const value = this.value(name);
    if (value === undefined) return this.problem(name, 'is required', '');
    return this.checkedUrl(name, value);
  }

  optionalUrl(name: string): string | undefined {
    const value = this.value(name);
    return value === undefined ? undefined : this.checkedUrl(name, value);
  }

  private checkedUrl(name: string, value: string): string {
    if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
      return this.problem(name, 'must be an http or https URL', value);
    return value.replace(/\/+$/, '');
  }

  /** A whole number within [min, max], or `fallback` when unset. */
  integer(name: string, { min, max, fallback }: { min: number; max: number; fallback: number }): number {
    const value = this.value(name);
    if (value === undefined) return fallback;
    const number = Number(value.trim());
    if (!Number.isInteger(number) || number < min || number > max)
      return this.problem(name, `must be a whole number from ${min} to ${max}`, fallback);
    return number;
  }

  /** One of `choices`, or `fallback` when unset. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const value = this.value(name);
    if (value === undefined) return fallback;
    if (!(choices as readonly string[]).includes(value))
      return this.problem(name, `must be one of ${choices.join(', ')}`, fallback);
    return value as T;
  }

  /** The parsed settings, or a ConfigError naming every problem found. */
  done<T>(settings: T): T {
    if (this.problems.length > 0) throw new ConfigError(`Invalid configuration: ${this.problems.join('; ')}`);
    return settings;
  }
}
