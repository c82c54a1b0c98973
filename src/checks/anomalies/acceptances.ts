import type { AnomalyAnswer, AnomalyDriver, AnomalyFinding } from '../../domain/anomaly-finding.js';
import { ACCEPTED_TOLERANCE } from './anomaly-policy.js';
import { cents } from './drivers.js';

/** A level a team said was expected: the rise of one driver (or of the team's whole day) per day. */
export type Acceptance = NonNullable<AnomalyAnswer['accepted']>;

/** A driver carrying at least this share of the excess is what an Expected answer accepts; else the team's day. */
const MAIN_DRIVER_SHARE = 0.5;

/**
 * What an Expected answer to `finding` accepts: its largest resource's rise when that explains
 * most of the excess, else its largest service's, else the team's excess as a whole. Pure.
 */
export function acceptedOf(finding: Pick<AnomalyFinding, 'team' | 'excess' | 'drivers' | 'hourly'>): Acceptance {
  // An hourly anomaly's amounts are over its hours: what is accepted is a level a day.
  const perDay = finding.hourly ? 24 / finding.hourly.hours : 1;
  for (const dimension of ['resource', 'service'] as const) {
    const top = finding.drivers.find((d) => d.dimension === dimension);
    if (top && top.share >= MAIN_DRIVER_SHARE) return { dimension, key: top.key, delta: cents(top.delta * perDay) };
  }
  return { dimension: 'team', key: finding.team, delta: cents(finding.excess * perDay) };
}

/** The acceptances of a team's findings answered Expected. */
export function acceptancesOf(findings: readonly Pick<AnomalyFinding, 'answer'>[]): Acceptance[] {
  return findings.flatMap((f) => (f.answer?.verdict === 'expected' && f.answer.accepted ? [f.answer.accepted] : []));
}

/**
 * The part of a day's excess no Expected answer accepts: an accepted driver's rise is taken off
 * while it stays within its accepted level (a rise beyond it counts whole), and a day within an
 * accepted team level leaves nothing. Pure.
 */
export function unexplainedExcess(excess: number, drivers: readonly AnomalyDriver[], acceptances: readonly Acceptance[]): number {
  let left = excess;
  for (const accepted of acceptances) {
    const limit = accepted.delta * ACCEPTED_TOLERANCE;
    if (accepted.dimension === 'team') {
      if (excess <= limit) left = 0;
      continue;
    }
    const driver = drivers.find((d) => d.dimension === accepted.dimension && d.key === accepted.key);
    if (driver && driver.delta > 0 && driver.delta <= limit) left -= driver.delta;
  }
  return left;
}
