import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BurnrateError } from '../domain/errors.js';

/** Options every verb that touches data accepts. */
export const COMMON_OPTIONS = {
  config: { type: 'string' },
  db: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** parseArgs, with its errors turned into a usage error that shows the verb's usage line. */
export function parseVerbArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
  usage: string,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw usageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''), usage);
  }
}

export function usageError(problem: string, usage: string): BurnrateError {
  return new BurnrateError('burnrate_usage', problem, `Usage: ${usage}`, 2);
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string, usage: string): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw usageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`, usage);
}
