import { describe, expect, it } from 'vitest';
import { anomalyCheck } from '../../../src/checks/anomalies/definition.js';
import { budgetCheck } from '../../../src/checks/budget/definition.js';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import { runCheck } from '../../../src/jobs/run-check.js';
import { DEMO_RUNAWAY } from '../../../src/providers/demo/demo-runaway.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { buildSources } from '../../../src/providers/registry.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import { testDeps } from '../../support/deps.js';

// The demo organisation's runaway (a Vertex AI search the vision team left running since 14:00 the
// day before yesterday): on first start the anomaly check names it, while the budget check has
// nothing to say of the vision team yet.

/** First starts on several days of a month: early, middle, late, on a weekend. */
const STARTS = ['2026-03-04T09:00:00Z', '2026-03-18T09:30:00Z', '2026-11-28T08:00:00Z', '2026-12-29T10:00:00Z'];

describe("the demo's runaway", () => {
  it.each(STARTS)(
    'on a first start at %s: an anomaly alert for vision naming the search, and no budget alert the runaway caused',
    async (now) => {
      const config = demoConfig();
      const { deps } = testDeps(config, now);
      deps.config = config;
      deps.sources = buildSources(config).spend;
      await refreshSources(deps);

      const budget = await runCheck(deps, budgetCheck());
      // The runaway adds no budget alert: every one of vision's was crossed by its usual spend alone.
      const runaway = (10 + 24) * DEMO_RUNAWAY.hourly;
      const addedByRunaway = budget.findings.filter(
        (f) => f.team === DEMO_RUNAWAY.team && (f.kind !== 'budget.actual' || f.amount - runaway < (f.threshold / 100) * f.budget),
      );
      expect(addedByRunaway).toEqual([]);

      const anomalies = await runCheck(deps, anomalyCheck());
      const vision = anomalies.findings.filter((f) => f.team === DEMO_RUNAWAY.team);
      // From the day it began where its 10 hours there were already beyond the bars, else from yesterday.
      const daysAgo = (n: number) => new Date(Date.parse(now) - n * 86_400_000).toISOString().slice(0, 10);
      expect(vision).toHaveLength(1);
      expect([daysAgo(2), daysAgo(1)]).toContain(vision[0]!.started);
      expect(vision[0]!.day).toBe(daysAgo(1));
      // Independent: the search's hours at its rate, 10 h the first day and 24 h yesterday.
      const resource = vision[0]!.drivers.find((d) => d.dimension === 'resource')!;
      expect(resource).toMatchObject({ key: DEMO_RUNAWAY.resourceId, amount: 24 * DEMO_RUNAWAY.hourly });
      // Its usual day: nothing, or its first 10 hours over the 14 days before an anomaly begun yesterday.
      const usual = vision[0]!.started === daysAgo(2) ? 0 : (10 * DEMO_RUNAWAY.hourly) / 14;
      expect(resource.usual).toBeCloseTo(usual, 2);
      const alert = anomalies.queued.find((d) => renderPlainText(d.message).includes('Computer Vision'))!;
      expect(renderPlainText(alert.message)).toContain(`from resource ${DEMO_RUNAWAY.resourceId}`);
    },
  );
});
