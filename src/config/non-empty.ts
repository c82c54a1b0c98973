import { z } from 'zod';

/** A string that is not blank once trimmed; `what` names what was expected, for the error. */
export const nonEmpty = (what: string) =>
  z
    .string({ error: `expected ${what}` })
    .trim()
    .min(1, { error: `expected ${what}` });
