import cron, { type ScheduledTask } from 'node-cron';
import type { Deps } from './deps.js';

export interface Scheduler {
  readonly running: boolean;
  describe(): string[];
  stop(): Promise<void>;
}

export interface ScheduledJobs {
  /** Refresh sources, then check budgets of the given teams. */
  budgetCheck(teams: string[]): Promise<void>;
  deliver(): Promise<void>;
  /** Monthly reviews due today, review reminders and closes, for the given teams. */
  review?(teams: string[]): Promise<void>;
  /** The idle-GPU check, on the `gpu.check` cron (UTC); absent when no GPU metrics are configured. */
  gpuCheck?(): Promise<void>;
}

/**
 * Cron expression -> job. The budget check runs at the configured hour in each team's own time
 * zone (one task per zone), so a Berlin team hears at 08:00 Berlin time. Delivery runs every minute.
 */
/** Told of every run of a job: how long it took and whether it failed (serve's /metrics). */
export type JobObserver = (job: string, seconds: number, ok: boolean) => void;

export function startScheduler(deps: Pick<Deps, 'config' | 'log'>, jobs: ScheduledJobs, observe: JobObserver = () => {}): Scheduler {
  const guard = (name: string, run: () => Promise<void>) => guarded(deps, name, run, observe);
  const [hour, minute] = deps.config.schedule.budgetCheck.split(':').map(Number);
  const byZone = new Map<string, string[]>();
  for (const team of deps.config.teams) byZone.set(team.timezone, [...(byZone.get(team.timezone) ?? []), team.id]);

  const tasks: ScheduledTask[] = [];
  const lines: string[] = [];
  for (const [timezone, teams] of byZone) {
    tasks.push(cron.schedule(`${minute} ${hour} * * *`, () => guard('budget check', () => jobs.budgetCheck(teams)), { timezone, name: `budget-check ${timezone}`, noOverlap: true }));
    lines.push(`budget check daily at ${deps.config.schedule.budgetCheck} ${timezone} for ${teams.join(', ')}`);
    if (jobs.review) {
      const review = jobs.review;
      const [reviewHour, reviewMinute] = deps.config.review.at.split(':').map(Number);
      // Daily: the job itself knows which day is a team's first working day of the month.
      tasks.push(cron.schedule(`${reviewMinute} ${reviewHour} * * *`, () => guard('monthly review', () => review(teams)), { timezone, name: `review ${timezone}`, noOverlap: true }));
      lines.push(`monthly review on the first working day at ${deps.config.review.at} ${timezone} (reminders and summaries daily) for ${teams.join(', ')}`);
    }
  }
  if (jobs.gpuCheck) {
    const gpuCheck = jobs.gpuCheck;
    tasks.push(cron.schedule(deps.config.gpu.check, () => guard('gpu check', gpuCheck), { timezone: 'UTC', name: 'gpu-check', noOverlap: true }));
    lines.push(`idle-GPU check on "${deps.config.gpu.check}" (UTC)`);
  }
  tasks.push(cron.schedule('* * * * *', () => guard('outbox delivery', jobs.deliver), { name: 'outbox', noOverlap: true }));
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

/** A failing run is logged and the schedule goes on. */
export async function guarded(deps: Pick<Deps, 'log'>, name: string, run: () => Promise<void>, observe: JobObserver): Promise<boolean> {
  const started = performance.now();
  try {
    await run();
    observe(name, (performance.now() - started) / 1000, true);
    return true;
  } catch (error) {
    observe(name, (performance.now() - started) / 1000, false);
    deps.log.error({ err: (error as Error).message, job: name }, 'scheduled job failed');
    return false;
  }
}
