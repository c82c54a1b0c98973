import type { Deps } from '../deps.js';
import type { Job } from '../jobs/job-table.js';
import { guarded, type JobObserver } from '../scheduler.js';

/**
 * What serve does once at start: every step of the job table once, for all teams, in table order
 * (a step shared by several jobs, such as the source refresh, runs the first time only), then the
 * hand-over to delivery of what they queued. With the default table that is:
 *   1. fill an empty store from the configured sources (a failing source is recorded stale)
 *   2. the budget check
 *   3. the idle-GPU and sweep checks, when GPU metrics are configured
 *   4. the monthly reviews due today (on the embedded demo alone, last month's whatever the day),
 *      and reminders and summaries due now
 *   5. hand what they queued to the delivery
 * Each check is guarded: a metrics backend or a cloud that is down at start is reported and the
 * other steps run, as in scheduled runs. A start must never become a crash loop.
 */
export async function runFirstChecks(deps: Deps, jobs: readonly Job[], say: (line: string) => void, observe: JobObserver): Promise<void> {
  const teams = deps.config.teams.map((t) => t.id);
  const steps = [...new Set(jobs.flatMap((job) => job.steps))];
  for (const step of steps.filter((s) => !s.last)) {
    await guarded(
      deps,
      step.name,
      () => step.run({ teams, say }),
      observe,
      (message) => say(`${step.name} failed: ${message} (serve goes on; the schedule tries again)`),
    );
  }
  for (const step of steps.filter((s) => s.last)) await step.run({ teams, say });
}
