import { describe, expect, it } from 'vitest';
import { runFirstChecks } from '../../src/cli/serve-first-run.js';
import type { Job, JobStep } from '../../src/jobs/job-table.js';
import { jobTable } from '../../src/jobs/job-table.js';
import { startScheduler } from '../../src/scheduler.js';
import { demoConfig } from '../../src/sources/demo/demo-config.js';
import { testDeps } from '../support/deps.js';

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
});
