import type { Deps } from '../../../deps.js';
import { convert, type FxRates } from '../../../domain/fx.js';
import { addDays } from '../../../domain/period.js';
import type { ImportedAnomaly } from '../provider-anomalies.js';

/** How far back a provider's anomalies are read, by their first day: one still going on began at most this long ago. */
const LOOKBACK_DAYS = 30;

export interface ReadProviderAnomalies {
  anomalies: ImportedAnomaly[];
  /** Sources that did not answer: their anomalies stay as they were. */
  failed: string[];
}

/**
 * The clouds' own anomalies for the judged teams, in each team's currency (at the rate of the
 * anomaly's first day's billing period). A source that fails is logged and left out: the check
 * goes on with burnrate's own judgement.
 */
export async function readProviderAnomalies(
  deps: Pick<Deps, 'anomalySources' | 'log'>,
  teams: ReadonlyMap<string, string>,
  provisional: string,
  fx: FxRates,
): Promise<ReadProviderAnomalies> {
  const sources = (deps.anomalySources ?? []).filter((s) => teams.has(s.team));
  const failed: string[] = [];
  const read = await Promise.all(
    sources.map(async (source) => {
      try {
        return { source, anomalies: await source.list(addDays(provisional, -LOOKBACK_DAYS), addDays(provisional, 1)) };
      } catch (error) {
        deps.log.warn(
          { source: source.id, err: (error as Error).message },
          `${source.label} did not answer; anomalies judged on burnrate's own data`,
        );
        failed.push(source.id);
        return { source, anomalies: [] };
      }
    }),
  );
  const anomalies = read.flatMap(({ source, anomalies }) =>
    anomalies.flatMap((a): ImportedAnomaly[] => {
      const currency = teams.get(source.team)!;
      if (!a.start) return [];
      const period = a.start.slice(0, 7);
      const money = (n: number) => convert(n, a.currency, currency, fx, period);
      const impact = money(a.impact);
      if (impact === null) {
        deps.log.warn({ source: source.id, anomaly: a.id }, `${source.label}: no ${a.currency} to ${currency} rate; anomaly left out`);
        return [];
      }
      return [
        {
          team: source.team,
          currency,
          source: source.id,
          label: source.label,
          id: a.id,
          start: a.start,
          end: a.end,
          impact,
          actual: a.actual === null ? null : money(a.actual),
          expected: a.expected === null ? null : money(a.expected),
          rootCauses: a.rootCauses.map((c) => ({ ...c, contribution: c.contribution === null ? null : money(c.contribution) })),
          ...(source.feedback ? {} : { noFeedback: true as const }),
        },
      ];
    }),
  );
  return { anomalies, failed };
}
