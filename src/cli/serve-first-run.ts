import type { Deps } from '../deps.js';
import { isBurnrateError } from '../domain/errors.js';
import { runBudgetCheck } from '../jobs/budget-check.js';
import { runGpuCheck } from '../jobs/gpu-check.js';
import { refreshSources } from '../jobs/refresh-sources.js';
import { runScheduledReview } from '../jobs/scheduled-review.js';
import { runSweepCheck } from '../jobs/sweep-check.js';
import type { JobObserver } from '../scheduler.js';

/**
 * What serve does once at start, step by step:
 *   1. fill an empty store from the configured sources (a failing source is recorded stale)
 *   2. the budget check
 *   3. the idle-GPU and sweep checks, when GPU metrics are configured
 *   4. the monthly reviews due today, and reminders and summaries due now
 *   5. hand what they queued to the delivery
 * Each step is guarded: a metrics backend or a cloud that is down at start is reported and the
 * other steps run, as in scheduled runs. A start must never become a crash loop.
 */
export async function runFirstChecks(deps: Deps, say: (line: string) => void, observe: JobObserver): Promise<void> {
  const step = async (name: string, run: () => Promise<void>) => {
    const started = performance.now();
    try {
      await run();
      observe(name, (performance.now() - started) / 1000, true);
    } catch (error) {
      observe(name, (performance.now() - started) / 1000, false);
      const message = isBurnrateError(error) ? error.describe().replace(/\n/g, ' ') : (error as Error).message;
      deps.log.error({ step: name, err: message }, 'first run step failed');
      say(`${name} failed: ${message} (serve goes on; the schedule tries again)`);
    }
  };
  await step('source refresh', async () => {
    const empty = await deps.store.isEmpty();
    for (const r of await refreshSources(deps)) {
      say(
        r.ok
          ? `source ${r.source}: ${r.summary?.rowsInserted ?? 0} daily rows${empty ? ' (first load)' : ''}`
          : `source ${r.source} failed: ${r.error}`,
      );
    }
  });
  await step('budget check', async () => {
    const check = await runBudgetCheck(deps);
    say(`budget check: ${check.findings.length} open finding(s), ${check.alerts.length} new alert(s)`);
  });
  if (deps.gpu) {
    await step('idle-GPU check', async () => {
      const gpu = await runGpuCheck(deps);
      say(
        `idle-GPU check: ${gpu.findings.filter((f) => f.state !== 'resolved').length} idle instance(s), ${gpu.queued.length} alert(s) queued${deps.config.actions.enabled ? '' : ' (actions are dry runs)'}`,
      );
    });
    await step('sweep check', async () => {
      const sweeps = await runSweepCheck(deps);
      if (deps.config.teams.some((t) => t.sweepCaps))
        say(`sweep caps: ${sweeps.findings.length} sweep(s) over a cap, ${sweeps.queued.length} alert(s) queued`);
    });
  }
  await step('monthly review', async () => {
    const review = await runScheduledReview(
      deps,
      deps.config.teams.map((t) => t.id),
    );
    if (review.posted.length + review.reminded.length + review.closed.length > 0) {
      say(`monthly review: ${review.posted.length} posted, ${review.reminded.length} reminder(s), ${review.closed.length} summary(ies)`);
    }
  });
  await deps.delivery?.wake();
}
