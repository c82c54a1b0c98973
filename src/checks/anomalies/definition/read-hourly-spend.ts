import type { Deps } from '../../../deps.js';
import type { TeamConfig } from '../../../config/schema.js';
import { convert, type FxRates } from '../../../domain/fx.js';
import { loadHourlyGpuSpend } from '../../../snapshots/hourly-gpu-spend.js';
import type { TeamHourlySpend } from '../hourly-anomaly.js';

/** A team's GPU machines' cost per hour, with the rate that turns it into the team's currency. */
export interface TeamHourlyInput {
  team: TeamConfig;
  currency: string;
  rate: number;
  spend: TeamHourlySpend;
}

export interface ReadHourlySpend {
  teams: TeamHourlyInput[];
  /** The latest complete hour's start (epoch seconds). */
  through: number;
}

/**
 * The judged teams' GPU machines' cost per hour (GPU metrics and inventory), for the hourly
 * judgement. Without GPU metrics, or when they fail (logged), none: the daily judgement goes on.
 */
export async function readHourlySpend(
  deps: Deps,
  teams: readonly TeamConfig[],
  currencyOf: (team: TeamConfig) => string,
  fx: FxRates,
  now: Date,
): Promise<ReadHourlySpend> {
  const through = Math.floor(now.getTime() / 3_600_000) * 3600 - 3600;
  if (!deps.gpu || teams.length === 0) return { teams: [], through };
  try {
    const spend = await loadHourlyGpuSpend(
      deps,
      teams.map((t) => t.id),
      now,
    );
    const month = now.toISOString().slice(0, 7);
    return {
      through,
      teams: teams.flatMap((team) => {
        const currency = currencyOf(team);
        const rate = convert(1, 'USD', currency, fx, month);
        const hours = spend.get(team.id);
        return rate === null || !hours ? [] : [{ team, currency, rate, spend: hours }];
      }),
    };
  } catch (error) {
    deps.log.warn({ err: (error as Error).message }, "GPU metrics did not answer; anomalies judged on the day's bill only");
    return { teams: [], through };
  }
}
