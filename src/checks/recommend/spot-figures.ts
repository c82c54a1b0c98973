import { addDays } from '../../domain/period.js';
import type { WasteDiagnosis } from '../../domain/waste.js';
import { cents } from '../review/allocate.js';

/** One instance's spot saving a month, and the days it was measured over (for the evidence). */
export interface SpotFigure {
  /** USD a month (the catalog's currency, in which recommendations are priced). */
  monthly: number;
  /** The days it stands on, in words: "the 7 days from 2026-11-26 to 2026-12-02". */
  window: string;
}

/**
 * Each instance's one spot figure, a month, from the waste diagnosis of a period: the bill's charge
 * for the hours it worked (after idle and stalled hours and any right-size, which are their own
 * causes), times spot's catalog discount for its type and region net of work redone after reclaims,
 * scaled to a month; added over the teams the bill charged it to. Recommendations, the waste report
 * and the monthly review all show this figure, so one instance never reads two spot savings for the
 * same days. `toUsd` converts from the diagnosis's currency (null: no rate, and no figure).
 * Instances the diagnosis advises no spot for are absent.
 */
export function spotFiguresOf(
  diagnosis: Pick<WasteDiagnosis, 'instances' | 'period'>,
  toUsd: (amount: number) => number | null,
): Map<string, SpotFigure> {
  const sums = new Map<string, number>();
  for (const i of diagnosis.instances) if (i.spot !== null) sums.set(i.instanceId, (sums.get(i.instanceId) ?? 0) + i.spot);
  const { start, end, days } = diagnosis.period;
  const window = `the ${days} day${days === 1 ? '' : 's'} from ${start} to ${addDays(end, -1)}`;
  const figures = new Map<string, SpotFigure>();
  for (const [id, sum] of sums) {
    const usd = toUsd(sum);
    if (usd !== null && usd > 0) figures.set(id, { monthly: cents(usd), window });
  }
  return figures;
}
