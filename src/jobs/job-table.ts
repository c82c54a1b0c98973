import type { Deps } from '../deps.js';
import type { PeopleDirectory } from '../ports/people-directory.js';
import { CHECKS } from '../checks/index.js';
import type { AnyCheckPlugin, CheckSchedule, JobCron } from '../checks/definition.js';
import { handOverAlerts } from '../outbox/delivery-loop.js';
import { runOrganisationDigest, runTeamDigests } from './digest.js';
import { refreshSources } from './refresh-sources.js';
import { runMonthlyReview } from './monthly-review.js';
import { runScheduledReview } from './scheduled-review.js';
import { sampleKubeUsage } from './kube-usage.js';
import { runCheck } from './run-check.js';

export type { JobCron };

/** One run of a job: the teams it is for, and where a step tells what it did (serve's first run prints it). */
export interface JobRun {
  teams: readonly string[];
  say(line: string): void;
}

export interface JobStep {
  /** How the step is named when it fails or is timed (serve's first run, /metrics). */
  name: string;
  /**
   * A step that ends several jobs (handing alerts to delivery): serve's first run runs it once,
   * after every other step, so that what all the checks queued leaves together.
   */
  last?: boolean;
  /** Only serve's first run runs it; the schedule leaves it out. */
  atStartOnly?: boolean;
  run(run: JobRun): Promise<void>;
}

export interface JobTableOptions {
  /**
   * Post last month's review at start, whatever the day (the embedded demo organisation: a first
   * visit finds a review thread to answer instead of waiting for the first working day of a month).
   */
  reviewAtStart?: boolean;
}

export interface Job {
  /** The name it is logged and timed under. */
  id: string;
  cron: JobCron;
  /** Its line in serve's "scheduled:" list (per time zone for daily jobs); none for the delivery. */
  describe?(timezone: string, teams: readonly string[]): string;
  steps: readonly JobStep[];
  /**
   * Runs in every replica, not only the scheduler's leader: it works on the replica's own memory
   * (its people directory) or its own delivery, not on shared state.
   */
  everyReplica?: boolean;
}

/**
 * What burnrate runs on its own, in the order serve's first run goes through the steps:
 *   1. the registered checks (checks/index.ts), job by job: the budget check (refresh the sources,
 *      check budgets, hand alerts to delivery), then, when GPU metrics are configured, the idle-GPU
 *      check and the sweep caps, Kubernetes usage sampled after them, and hand over
 *   3. monthly review: refresh, reviews due today with reminders and summaries (and, when asked,
 *      last month's review at start whatever the day), hand over
 *   4. outbox delivery, every minute
 */
export function jobTable(deps: Deps, options: JobTableOptions = {}): Job[] {
  const handOver: JobStep = { name: 'hand over to delivery', last: true, run: () => handOverAlerts(deps) };
  const refresh: JobStep = {
    name: 'source refresh',
    run: async ({ say }) => {
      const empty = await deps.store.isEmpty();
      for (const r of await refreshSources(deps)) {
        say(
          r.ok
            ? `source ${r.source}: ${r.summary?.rowsInserted ?? 0} daily rows${empty ? ' (first load)' : ''}`
            : `source ${r.source} failed: ${r.error}`,
        );
      }
    },
  };
  const reviewAt = deps.config.review.at;
  // Each directory once (the console may share Slack's), and only those that read something.
  const seen = new Set<PeopleDirectory>();
  const directories = deps.chat.flatMap((port) => {
    const people = port.people;
    if (!people?.refresh || seen.has(people)) return [];
    seen.add(people);
    return [{ platform: port.platform, people: people as ReadableDirectory }];
  });
  const jobs: Job[] = [];
  // First, so the first checks already name and ping people and groups hold their roles.
  if (directories.length > 0) jobs.push(peopleJob(directories));
  jobs.push(...checkJobs(deps, refresh, handOver));
  jobs.push({
    // Daily: the job itself knows which day is a team's first working day of the month.
    id: 'monthly review',
    cron: { daily: reviewAt },
    describe: (timezone, teams) =>
      `monthly review on the first working day at ${reviewAt} ${timezone} (reminders and summaries daily) for ${teams.join(', ')}`,
    steps: [
      refresh,
      {
        name: 'monthly review',
        run: async ({ teams, say }) => {
          const review = await runScheduledReview(deps, teams);
          if (review.posted.length + review.reminded.length + review.closed.length > 0) {
            say(
              `monthly review: ${review.posted.length} posted, ${review.reminded.length} reminder(s), ${review.closed.length} summary(ies)`,
            );
          }
        },
      },
      ...(options.reviewAtStart ? [lastMonthReviewAtStart(deps)] : []),
      handOver,
    ],
  });
  jobs.push(...digestJobs(deps, handOver));
  jobs.push({ id: 'outbox delivery', cron: { expression: '* * * * *', utc: false }, steps: [handOver], everyReplica: true });
  return jobs;
}

/**
 * Last month's review for every team, at start: recorded once per team and month, so a restart
 * (or the scheduled review of a first working day) finds it there and posts nothing again.
 */
function lastMonthReviewAtStart(deps: Deps): JobStep {
  return {
    name: "last month's review",
    atStartOnly: true,
    run: async ({ teams, say }) => {
      const posted = (await runMonthlyReview(deps, { teams })).filter((r) => r.created);
      if (posted.length > 0) say(`monthly review: last month's review posted for ${posted.map((r) => r.team).join(', ')}`);
    },
  };
}

/** A directory with something to read (the demo's fixed names have nothing). */
type ReadableDirectory = PeopleDirectory & Required<Pick<PeopleDirectory, 'refresh'>>;

/** Names and user groups read again from each chat platform daily (03:17 UTC, off the hour's rush). */
function peopleJob(directories: { platform: string; people: ReadableDirectory }[]): Job {
  return {
    id: 'people directory',
    cron: { expression: '17 3 * * *', utc: true },
    describe: () => 'names and user groups read daily at 03:17 UTC',
    everyReplica: true,
    steps: [
      {
        name: 'people directory',
        run: async ({ say }) => {
          for (const { platform, people } of directories) {
            await people.refresh();
            say(
              people.refreshedAt
                ? `${platform} people and user groups: read`
                : `${platform} people and user groups: not readable (see the log); roles come from user ids only`,
            );
          }
        },
      },
    ],
  };
}

/** Teams' digests at `digest.at` in each team's zone; the organisation's at the same time in UTC. */
function digestJobs(deps: Deps, handOver: JobStep): Job[] {
  const at = deps.config.digest.at;
  const jobs: Job[] = [];
  if (deps.config.teams.some((t) => t.digest !== 'off'))
    jobs.push({
      id: 'digest',
      cron: { daily: at },
      describe: (timezone, teams) => `digests daily at ${at} ${timezone} for ${teams.join(', ')} (where teams[].digest is on)`,
      steps: [
        {
          name: 'digest',
          run: async ({ teams, say }) => {
            const queued = await runTeamDigests(deps, teams);
            if (queued > 0) say(`digest: ${queued} queued`);
          },
        },
        handOver,
      ],
    });
  const organisation = deps.config.digest.organisation;
  if (organisation !== 'off') {
    const [hour, minute] = at.split(':').map(Number);
    jobs.push({
      id: 'organisation digest',
      cron: { expression: `${minute} ${hour} * * ${organisation === 'weekly' ? '1' : '*'}`, utc: true },
      describe: () => `organisation digest to admins ${organisation} at ${at} UTC`,
      steps: [
        {
          name: 'organisation digest',
          run: async ({ say }) => {
            const queued = await runOrganisationDigest(deps);
            if (queued > 0) say(`organisation digest: ${queued} queued`);
          },
        },
        handOver,
      ],
    });
  }
  return jobs;
}

/**
 * Steps a job runs after its checks that are no check themselves: Kubernetes usage is sampled on the
 * GPU metrics' cron, where the clusters are read anyway.
 */
function samplersOf(deps: Deps): Record<string, JobStep[]> {
  const kubeUsage: JobStep = {
    name: 'Kubernetes usage',
    run: async ({ say }) => {
      if (!deps.gpu?.clusters) return;
      say(`Kubernetes usage: ${await sampleKubeUsage(deps)} workload-node row(s) recorded`);
    },
  };
  return { 'gpu check': [kubeUsage] };
}

/**
 * The checks' jobs, built from the registry: each job named by a check (in registry order) runs a
 * refresh first when its first check asks, then its checks one after another, then the hand-over.
 */
function checkJobs(deps: Deps, refresh: JobStep, handOver: JobStep): Job[] {
  const jobs = new Map<string, { schedule: CheckSchedule; checks: AnyCheckPlugin[] }>();
  for (const check of CHECKS) {
    if (check.enabled && !check.enabled(deps)) continue;
    const job = jobs.get(check.schedule.job) ?? { schedule: check.schedule, checks: [] };
    job.checks.push(check);
    jobs.set(check.schedule.job, job);
  }
  const samplers = samplersOf(deps);
  return [...jobs].map(([id, { schedule, checks }]) => {
    if (!schedule.cron) throw new Error(`The first check of the job "${id}" (${checks[0]!.name}) must say when it runs.`);
    const cron = schedule.cron(deps);
    const describe = schedule.describe;
    return {
      id,
      cron,
      ...(describe ? { describe: (timezone: string, teams: readonly string[]) => describe(deps, timezone, teams) } : {}),
      steps: [
        ...(schedule.refreshFirst ? [refresh] : []),
        ...checks.map((check) => checkStep(deps, check, 'daily' in cron)),
        ...(samplers[id] ?? []),
        handOver,
      ],
    };
  });
}

/**
 * One registered check as a step. A daily job runs each time zone's teams at their hour; a cron job
 * checks every team and what belongs to none (instances of no team cost the same).
 */
function checkStep(deps: Deps, check: AnyCheckPlugin, daily: boolean): JobStep {
  return {
    name: check.name,
    run: async ({ teams, say }) => {
      const definition = check.definition(deps, daily ? teams : undefined);
      if (!definition) return;
      const line = check.summary(deps, await runCheck(deps, definition));
      if (line) say(line);
    },
  };
}

/** A scheduled run: the steps one after another; a failing step ends the run (the scheduler logs it). */
export async function runJob(job: Job, teams: readonly string[]): Promise<void> {
  for (const step of job.steps) if (!step.atStartOnly) await step.run({ teams, say: () => {} });
}
