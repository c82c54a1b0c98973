import { hostname } from 'node:os';
import cron, { type ScheduledTask } from 'node-cron';
import { isBurnrateError } from './domain/errors.js';
import type { Deps } from './deps.js';
import { runJob, type Job } from './jobs/job-table.js';

export interface Scheduler {
  readonly running: boolean;
  /** Whether this process runs the shared jobs now (one replica of several does). */
  readonly leading: boolean;
  describe(): string[];
  stop(): Promise<void>;
}

/** Told of every run of a job: how long it took and whether it failed (serve's /metrics). */
export type JobObserver = (job: string, seconds: number, ok: boolean) => void;

export interface SchedulerOptions {
  observe?: JobObserver;
  /** This process's name in the job_runs rows; host and pid by default. */
  owner?: string;
  /** How often the leader renews its lease and a follower asks for it (Postgres); 2 s by default. */
  leaderIntervalMs?: number;
}

/**
 * Starts the job table on node-cron. A daily job runs at its time of day in each team's own time
 * zone (one task per zone, for the teams of that zone), so a Berlin team hears at 08:00 Berlin time;
 * the others run on their cron expression. Every run is guarded: a failure is logged and the
 * schedule goes on.
 *
 * Several replicas on one database all schedule, but only the leader (store.competeForLeadership)
 * runs the shared jobs, confirming its lease with the database before each, and each occurrence
 * (the job, its zone and the minute it was due) is claimed as a row first, so an occurrence runs
 * once even while the lead changes hands. Jobs
 * marked everyReplica (its own people directory, its own delivery) run everywhere.
 */
export function startScheduler(
  deps: Pick<Deps, 'config' | 'log' | 'store' | 'clock'>,
  jobs: readonly Job[],
  options: SchedulerOptions = {},
): Scheduler {
  const observe = options.observe ?? (() => {});
  const owner = options.owner ?? `${hostname()}:${process.pid}`;
  const leadership = deps.store.competeForLeadership({
    ...(options.leaderIntervalMs ? { intervalMs: options.leaderIntervalMs } : {}),
    onChange: (leader) => deps.log.info({ owner }, leader ? 'scheduler: leading' : 'scheduler: following'),
  });
  const task = (name: string, job: Job, teams: readonly string[]) => async (context: { date: Date }) => {
    // Asked of the database, not remembered: a leader frozen past its lease has lost it on waking.
    if (!job.everyReplica && !(await leadership.confirm())) return;
    await guarded(
      deps,
      job.id,
      async () => {
        const due = minuteOf(context.date);
        if (!job.everyReplica && !(await deps.store.claims.jobOccurrence(name, due, owner, deps.clock()))) {
          deps.log.info({ job: name, due: due.toISOString() }, 'job occurrence already run by another replica');
          return;
        }
        await runJob(job, teams);
      },
      observe,
    );
  };
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
      const name = `${job.id} ${timezone}`;
      tasks.push(
        cron.schedule(`${minute} ${hour} * * *`, task(name, job, teams), { timezone, name: `${slug(job)} ${timezone}`, noOverlap: true }),
      );
      if (job.describe) lines.push(job.describe(timezone, teams));
    }
  }
  for (const job of jobs) {
    if ('daily' in job.cron) continue;
    const timezone = job.cron.utc ? { timezone: 'UTC' } : {};
    tasks.push(cron.schedule(job.cron.expression, task(job.id, job, allTeams), { ...timezone, name: slug(job), noOverlap: true }));
    if (job.describe) lines.push(job.describe('UTC', allTeams));
  }
  let running = true;
  return {
    get running() {
      return running;
    },
    get leading() {
      return leadership.isLeader();
    },
    describe: () => lines,
    stop: async () => {
      running = false;
      await Promise.all(tasks.map((t) => t.destroy()));
      await leadership.stop();
    },
  };
}

/** The minute an occurrence was due: the same for every replica whose timer fired for it. */
function minuteOf(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 60_000) * 60_000);
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
