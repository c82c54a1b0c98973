import { ownerTagOf } from '../../domain/ownership.js';
import type { SpendRow } from '../../domain/spend.js';
import { DEMO_ACCOUNTS } from './demo-fleet.js';

/**
 * The demo's runaway: a Vertex AI hyperparameter search the vision team left running. It began at
 * 14:00 UTC the day before yesterday and ran all of yesterday (the bill's last, provisional day),
 * on a team far under its budget, so the anomaly check speaks on first start where no budget line is
 * near. Its own rows, added by the demo source beside the usual bill (demoSpendRows, which the
 * anomaly backtest reads as the teams' usual days, stays as it was).
 */
export const DEMO_RUNAWAY = {
  team: 'vision',
  resourceId: 'projects/cv-platform/locations/us-central1/hyperparameterTuningJobs/cv-hpo-sweep-17',
  service: 'Vertex AI',
  /** Its trials' accelerators at Vertex AI's on-demand rate, per hour. */
  hourly: 60,
  startHourUtc: 14,
} as const;

const DAY_MS = 86_400_000;

/** The runaway's rows on the two days before `now` (UTC), tagged for the vision team under `tagKeys`. */
export function demoRunawayRows(
  now: Date,
  tagKeys: readonly string[],
  resolveTeam: (ownerTag: string | null | undefined) => string,
): SpendRow[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const ownerTag = ownerTagOf({ team: DEMO_RUNAWAY.team }, tagKeys);
  return [
    [2, 24 - DEMO_RUNAWAY.startHourUtc],
    [1, 24],
  ].map(([daysAgo, hours]) => {
    const day = new Date(today - daysAgo! * DAY_MS).toISOString().slice(0, 10);
    const amount = hours! * DEMO_RUNAWAY.hourly;
    return {
      day,
      billingPeriod: day.slice(0, 7),
      team: resolveTeam(ownerTag),
      ownerTag,
      provider: 'Google Cloud',
      billingAccount: DEMO_ACCOUNTS.gcp.billing,
      subAccount: DEMO_ACCOUNTS.gcp.vision,
      currency: 'USD',
      service: DEMO_RUNAWAY.service,
      serviceCategory: 'AI and Machine Learning',
      resourceId: DEMO_RUNAWAY.resourceId,
      chargeCategory: 'Usage',
      pricingCategory: 'Standard',
      billed: amount,
      effective: amount,
      usageHours: hours!,
    };
  });
}
