import { describe, expect, it } from 'vitest';
import { runFirstChecks } from '../../src/cli/serve-first-run.js';
import { jobTable } from '../../src/jobs/job-table.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { buildSources } from '../../src/providers/registry.js';
import { stripMarkup } from '../../templates/message.js';
import { testDeps } from '../support/deps.js';

/**
 * `npm start` at any hour: serve's first checks on the embedded demo organisation (its fleet and
 * its cluster), on the demo's clock set to a weekday and a weekend at night, in the morning, the
 * afternoon and the evening UTC. Whatever the hour, every team's channel gets an idle-GPU alert.
 */
async function firstChecksAt(now: string) {
  const config = demoConfig({ cluster: true });
  const t = testDeps(config, now);
  t.deps.sources = buildSources(t.deps.config).spend;
  t.deps.gpu = buildGpuDeps(t.deps.config)!;
  await runFirstChecks(
    t.deps,
    jobTable(t.deps),
    () => {},
    () => {},
  );
  return t;
}

const IDLE_ALERT = /^(.+): (\d+) idle GPU instances? \(/;

describe('the demo at any hour', () => {
  // Thursday 3 Dec 2026 (a working day everywhere) and Sunday 6 Dec 2026.
  for (const day of ['2026-12-03', '2026-12-06'])
    for (const hour of ['03', '09', '14', '21'])
      it(`gives every team an idle-GPU alert in its channel when started ${day} at ${hour}:00 UTC`, async () => {
        const { deps, chat } = await firstChecksAt(`${day}T${hour}:00:00Z`);
        const alerts = chat.posted.filter((p) => p.op === 'post' && IDLE_ALERT.test(stripMarkup(p.message.summary)));
        for (const team of deps.config.teams) {
          const mine = alerts.filter((p) => p.address === `#${team.id}`);
          expect(mine, `${team.id} at ${hour}:00`).toHaveLength(1);
          const [, name, count] = IDLE_ALERT.exec(stripMarkup(mine[0]!.message.summary))!;
          expect(name).toBe(team.name);
          expect(Number(count)).toBeGreaterThanOrEqual(1);
        }
        await deps.store.close();
      });
});
