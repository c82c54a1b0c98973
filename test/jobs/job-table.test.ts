import { describe, expect, it } from 'vitest';
import { runFirstChecks } from '../../src/cli/serve-first-run.js';
import type { Job, JobStep } from '../../src/jobs/job-table.js';
import { jobTable, runJob } from '../../src/jobs/job-table.js';
import { startScheduler } from '../../src/scheduler.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { testDeps } from '../support/deps.js';
import { gpuDemo } from '../support/gpu-demo.js';
import { CHECKS } from '../../src/checks/index.js';

describe('the job table', () => {
  it('is what the scheduler runs: daily jobs per team time zone, then the cron jobs', async () => {
    const { deps } = testDeps(demoConfig());
    const jobs = jobTable(deps);
    expect(jobs.map((j) => j.id)).toEqual(['budget check', 'monthly review', 'outbox delivery']);
    const scheduler = startScheduler(deps, jobs);
    try {
      const lines = scheduler.describe();
      const zones = [...new Set(deps.config.teams.map((t) => t.timezone))];
      expect(lines).toHaveLength(zones.length * 2);
      expect(lines[0]).toBe(`budget check daily at ${deps.config.schedule.budgetCheck} Europe/Berlin for ml-research`);
      expect(lines[1]).toMatch(
        /^monthly review on the first working day at .* Europe\/Berlin \(reminders and summaries daily\) for ml-research$/,
      );
    } finally {
      await scheduler.stop();
    }
  });

  it('runs at start every step once in table order, guarded, and the hand-over last', async () => {
    const { deps } = testDeps(demoConfig());
    const ran: string[] = [];
    const step = (name: string, fail = false, last = false): JobStep => ({
      name,
      last,
      run: async ({ teams, say }) => {
        ran.push(`${name} for ${teams.length}`);
        if (fail) throw new Error(`${name} is down`);
        say(`${name}: done`);
      },
    });
    const refresh = step('refresh');
    const handOver = step('hand over', false, true);
    const jobs: Job[] = [
      { id: 'a', cron: { daily: '08:00' }, steps: [refresh, step('check'), handOver] },
      { id: 'b', cron: { expression: '*/5 * * * *', utc: true }, steps: [step('metrics', true), step('sweeps'), handOver] },
      { id: 'c', cron: { daily: '09:00' }, steps: [refresh, step('review'), handOver] },
    ];
    const said: string[] = [];
    const observed: Array<[string, boolean]> = [];
    await runFirstChecks(
      deps,
      jobs,
      (line) => said.push(line),
      (job, _seconds, ok) => observed.push([job, ok]),
    );
    const teams = deps.config.teams.length;
    expect(ran).toEqual(['refresh', 'check', 'metrics', 'sweeps', 'review', 'hand over'].map((name) => `${name} for ${teams}`));
    expect(said).toEqual([
      'refresh: done',
      'check: done',
      'metrics failed: metrics is down (serve goes on; the schedule tries again)',
      'sweeps: done',
      'review: done',
      'hand over: done',
    ]);
    expect(observed).toEqual([
      ['refresh', true],
      ['check', true],
      ['metrics', false],
      ['sweeps', true],
      ['review', true],
    ]);
  });

  it("asked to, posts last month's review at start only: the schedule's runs leave that step out", async () => {
    const { deps } = testDeps(demoConfig());
    const steps = (jobs: Job[]) =>
      jobs.find((j) => j.id === 'monthly review')!.steps.map((s) => `${s.name}${s.atStartOnly ? ' (at start)' : ''}`);
    expect(steps(jobTable(deps))).toEqual(['source refresh', 'monthly review', 'hand over to delivery']);
    expect(steps(jobTable(deps, { reviewAtStart: true }))).toEqual([
      'source refresh',
      'monthly review',
      "last month's review (at start)",
      'hand over to delivery',
    ]);
    const ran: string[] = [];
    const step = (name: string, atStartOnly = false): JobStep => ({ name, atStartOnly, run: async () => void ran.push(name) });
    await runJob({ id: 'a', cron: { daily: '09:00' }, steps: [step('review'), step('at start', true), step('hand over')] }, []);
    expect(ran).toEqual(['review', 'hand over']);
  });
});

describe('the checks in the job table', () => {
  it('are the registered checks: each job runs its checks in registry order, refreshed first where asked, handed over last', () => {
    const { deps } = gpuDemo();
    const jobs = jobTable(deps);
    const steps = (id: string) => jobs.find((j) => j.id === id)?.steps.map((s) => s.name);
    expect(steps('budget check')).toEqual(['source refresh', 'budget check', 'anomaly check', 'hand over to delivery']);
    expect(steps('gpu check')).toEqual([
      'idle-GPU check',
      'sweep check',
      'hourly anomaly check',
      'Kubernetes usage',
      'hand over to delivery',
    ]);
    expect(jobs.find((j) => j.id === 'gpu check')?.cron).toEqual({ expression: deps.config.gpu.check, utc: true });
    // Every registered check runs somewhere.
    const named = new Set(jobs.flatMap((j) => j.steps.map((s) => s.name)));
    expect(CHECKS.filter((c) => !named.has(c.name))).toEqual([]);
  });
});
