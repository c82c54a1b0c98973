import type { z } from 'zod';
import { BurnrateError } from '../domain/errors.js';

/** Parses a button's value (JSON written by one of our templates); a forged or stale one gets a clear answer. */
export function parseButtonValue<T extends z.ZodType>(schema: T, value: string, refresh: string): z.output<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  const result = schema.safeParse(parsed);
  if (!result.success)
    throw new BurnrateError(
      'burnrate_payload_invalid',
      'This button carries data burnrate cannot read.',
      `Run \`${refresh}\` for a fresh view.`,
    );
  return result.data;
}

/** The answer for a button whose finding this database does not know. */
export function unknownFinding(refresh: string): BurnrateError {
  return new BurnrateError(
    'burnrate_finding_unknown',
    'This alert is no longer known to burnrate.',
    `It may come from another installation or a reset database; run \`${refresh}\` for the current state.`,
  );
}
