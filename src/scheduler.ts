import cron, { type ScheduledTask } from 'node-cron';
import { isBurnrateError } from './domain/errors.js';
import type { Deps } from './deps.js';
import { runJob, type Job } from './jobs/job-table.js';

export interface Scheduler {
  readonly running: boolean;
  describe(): string[];
  stop(): Promise<void>;
}

/** Told of every run of a job: how long it took and whether it failed (serve's /metrics). */
export type JobObserver = (job: string, seconds: number, ok: boolean) => void;

/**
 * Starts the job table on node-cron. A daily job runs at its time of day in each team's own time
 * zone (one task per zone, for the teams of that zone), so a Berlin team hears at 08:00 Berlin time;
 * the others run on their cron expression. Every run is guarded: a failure is logged and the
 * schedule goes on.
 */
export function startScheduler(deps: Pick<Deps, 'config' | 'log'>, jobs: readonly Job[], observe: JobObserver = () => {}): Scheduler {
  const guard = (job: Job, teams: readonly string[]) => guarded(deps, job.id, () => runJob(job, teams), observe);
  const byZone = new Map<string, string[]>();
  for (const team of deps.config.teams) byZone.set(team.timezone, [...(byZone.get(team.timezone) ?? []), team.id]);
  const allTeams = deps.config.teams.map((t) => t.id);
  const slug = (job: Job) => job.id.replace(/ /g, '-');

  const tasks: ScheduledTask[] = [];
  const lines: string[] = [];
  for (const [timezone, teams] of byZone) {
    for (const job of jobs) {
      if (!('daily' in job.cron)) continue;
      const [hour, minute] = job.cron.daily.split(':').map(Number);
      tasks.push(
        cron.schedule(`${minute} ${hour} * * *`, () => guard(job, teams), { timezone, name: `${slug(job)} ${timezone}`, noOverlap: true }),
      );
      if (job.describe) lines.push(job.describe(timezone, teams));
    }
  }
  for (const job of jobs) {
    if ('daily' in job.cron) continue;
    const timezone = job.cron.utc ? { timezone: 'UTC' } : {};
    tasks.push(cron.schedule(job.cron.expression, () => guard(job, allTeams), { ...timezone, name: slug(job), noOverlap: true }));
    if (job.describe) lines.push(job.describe('UTC', allTeams));
  }
  let running = true;
  return {
    get running() {
      return running;
    },
    describe: () => lines,
    stop: async () => {
      running = false;
      await Promise.all(tasks.map((t) => t.destroy()));
    },
  };
}

/**
 * A failing run is logged (and told to `onFailure`, with the error's hint when it has one) and the
 * schedule goes on; every run is timed for /metrics.
 */
export async function guarded(
  deps: Pick<Deps, 'log'>,
  name: string,
  run: () => Promise<void>,
  observe: JobObserver,
  onFailure: (message: string) => void = () => {},
): Promise<boolean> {
  const started = performance.now();
  try {
    await run();
    observe(name, (performance.now() - started) / 1000, true);
    return true;
  } catch (error) {
    observe(name, (performance.now() - started) / 1000, false);
    const message = isBurnrateError(error) ? error.describe().replace(/\n/g, ' ') : (error as Error).message;
    deps.log.error({ err: message, job: name }, 'job failed');
    onFailure(message);
    return false;
  }
}
