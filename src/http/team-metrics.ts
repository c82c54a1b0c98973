import { Gauge, type Registry } from 'prom-client';
import type { Deps } from '../deps.js';
import { loadTeamGauges, type TeamGauges } from '../snapshots/team-gauges.js';
import { roundMicros } from '../domain/money.js';

// Money gauges are set in micro-units (roundMicros): a scrape never shows 2175.5258999999996.

/** Scrapes come every few seconds; the team figures move with imports and checks, so a minute old is fresh. */
const REFRESH_MS = 60_000;

export interface TeamMetricsOptions {
  /** Whether the idle-GPU check has run: until then no team's idle cost is known, so it is absent, not 0. */
  idleChecked(): boolean;
}

/**
 * Per-team cost gauges for the dashboards teams already keep beside latency and accuracy (names and
 * labels are stable; docs/grafana-panel.json is a sample panel). `refresh` reads them before a
 * scrape, at most once a minute; a failed read keeps the last figures rather than failing the scrape.
 */
export function registerTeamMetrics(registry: Registry, deps: Deps, options: TeamMetricsOptions): { refresh(): Promise<void> } {
  let figures: TeamGauges[] = [];
  let readAt = -Infinity;
  // Whether the figures were read after the idle-GPU check had run: until then the idle cost is
  // unknown (absent), and the first check's success calls for a fresh read, not a minute's wait.
  let readAfterIdleCheck = false;
  const gauge = (name: string, help: string, labelNames: string[], set: (g: Gauge, t: TeamGauges) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const t of figures) set(this, t);
      },
    });
  gauge(
    'burnrate_team_spend_month_to_date',
    "Team's effective spend this calendar month (UTC), as billed so far",
    ['team', 'currency'],
    (g, t) => g.set({ team: t.team, currency: t.currency }, roundMicros(t.spendMonthToDate)),
  );
  gauge('burnrate_team_forecast_budget_ratio', "This month's forecast spend over the monthly budget (1 = on budget)", ['team'], (g, t) => {
    if (t.forecastBudgetRatio !== null) g.set({ team: t.team }, t.forecastBudgetRatio);
  });
  gauge(
    'burnrate_team_idle_gpu_cost_per_day',
    'What the GPUs idle or stalled right now cost a day (open idle alerts)',
    ['team', 'currency'],
    (g, t) => {
      if (readAfterIdleCheck) g.set({ team: t.team, currency: 'USD' }, roundMicros(t.idleGpuCostPerDay));
    },
  );
  gauge(
    'burnrate_team_waste_monthly',
    'GPU waste a month by cause over the last 30 days (burnrate waste): causes do not overlap and add up',
    ['team', 'category', 'currency'],
    (g, t) => {
      for (const [category, monthly] of Object.entries(t.waste ?? {}))
        g.set({ team: t.team, category, currency: t.currency }, roundMicros(monthly));
    },
  );
  gauge(
    'burnrate_team_unit_cost',
    'Average cost this month per experiment, training run or sweep, and per 1,000 predictions at the month forecast',
    ['team', 'unit', 'currency'],
    (g, t) => {
      for (const [unit, cost] of Object.entries(t.unitCosts))
        if (cost !== null)
          g.set({ team: t.team, unit: unit === 'predictions1000' ? 'predictions_1000' : unit, currency: t.currency }, roundMicros(cost));
    },
  );
  return {
    async refresh() {
      const now = deps.clock().getTime();
      const idleChecked = options.idleChecked();
      if (now - readAt < REFRESH_MS && idleChecked === readAfterIdleCheck) return;
      try {
        // Before the first import no team's spend is known: every team gauge stays absent, not 0.
        figures = (await deps.store.isEmpty()) ? [] : await loadTeamGauges(deps);
        readAt = now;
        readAfterIdleCheck = idleChecked;
      } catch (error) {
        deps.log.warn({ err: (error as Error).message }, 'team cost gauges could not be read; the last figures stay');
      }
    },
  };
}
