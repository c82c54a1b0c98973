import { z } from 'zod';

const UNITS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** A duration written as burnrate.yml writes them, e.g. `30s`, `5m`, `24h` or `2d`, in milliseconds; NaN for anything else. */
export function durationMs(text: string): number {
  const match = DURATION.exec(text);
  return match ? Number(match[1]) * UNITS[match[2] as keyof typeof UNITS] : Number.NaN;
}

export interface DurationBounds {
  /** The shortest and longest allowed, written as durations (`30s`, `1h`): the message shows them as written. */
  min: string;
  max: string;
  /** Why the bounds are what they are, said after them. */
  why?: string;
}

/**
 * A duration such as `90s`, `5m`, `24h` or `2d`, kept as written (read with durationMs), and
 * within bounds: a duration that validates must also work, so `99999999999d` (past the last date
 * a Date can hold), `1ms` for a lease or `0s` between retries are refused here, saying what to
 * write instead, rather than breaking delivery later.
 */
export function duration(what: string, bounds: DurationBounds) {
  const shape = `expected ${what} as a number and a unit (ms, s, m, h or d), such as 30s, 5m, 24h or 2d`;
  const [min, max] = [durationMs(bounds.min), durationMs(bounds.max)];
  return z
    .string({ error: shape })
    .regex(DURATION, { error: shape })
    .refine(
      (text) => {
        const ms = durationMs(text);
        return Number.isNaN(ms) || (ms >= min && ms <= max); // a wrong shape has its own message
      },
      { error: `expected ${what} from ${bounds.min} to ${bounds.max}${bounds.why ? ` (${bounds.why})` : ''}` },
    );
}
