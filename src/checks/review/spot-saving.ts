import type { WasteDiagnosis } from '../../domain/waste.js';
import { cents } from './allocate.js';

/** Days in an average month: what the diagnosis scales a shorter period to. */
const DAYS_PER_MONTH = 365.25 / 12;

/**
 * What running a line's instance on spot would have saved over the diagnosed period: the waste
 * diagnosis's own spot figure for that instance and team (the catalog's spot discount net of work
 * redone after reclaims, on the bill's charge left after idle and right-size), so a review line and
 * the waste report never show two. Null when the diagnosis advises no spot for it (already spot,
 * committed, one node of a multi-node run, no checkpointing, not in the catalog) or has no diagnosis.
 */
export function spotSaving(
  diagnosis: Pick<WasteDiagnosis, 'instances' | 'period'> | null,
  resourceId: string | null,
  team: string,
): number | null {
  if (!diagnosis || !resourceId) return null;
  const figures = diagnosis.instances.filter((i) => i.instanceId === resourceId && i.team === team && i.spot !== null);
  if (figures.length === 0) return null;
  const unscale = diagnosis.period.scaledToMonth ? diagnosis.period.days / DAYS_PER_MONTH : 1;
  const saving = cents(figures.reduce((s, i) => s + i.spot!, 0) * unscale);
  return saving > 0 ? saving : null;
}
