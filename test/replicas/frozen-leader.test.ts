import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { stringify } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';
import { workDir } from '../support/run-cli.js';
import { startServe, type ServeProcess } from '../support/serve-process.js';

// Two real `serve` processes on one Postgres; the leader is frozen with SIGSTOP, as a long GC
// pause or a paused VM freezes it: its connection stays open and the kernel still answers
// keepalives, so only a lease that stops being renewed shows it. What must hold: the other replica
// leads within 30 s and runs the schedule; the old one, woken, runs no job as leader.

describePostgres('a frozen leader', () => {
  let db: pg.Client;
  const replicas: ServeProcess[] = [];

  beforeAll(async () => {
    const url = await freshDatabase();
    db = new pg.Client({ connectionString: url });
    await db.connect();
    // The idle-GPU check every minute: a job only the leader runs, due soon whenever the test is.
    const config = JSON.parse(JSON.stringify(demoConfig())) as ReturnType<typeof demoConfig>;
    Object.assign(config.gpu, { check: '* * * * *' });
    const cwd = workDir();
    writeFileSync(join(cwd, 'burnrate.yml'), stringify(config));
    const env = { DATABASE_URL: url, CONSOLE: 'off', LOG_LEVEL: 'info' };
    replicas.push(...(await Promise.all([0, 1].map(() => startServe(env, 90_000, cwd)))));
  }, 120_000);

  afterAll(async () => {
    for (const r of replicas) if (r.child.exitCode === null) r.child.kill('SIGCONT');
    await Promise.all(replicas.map((r) => r.stop()));
    await db?.end();
  });

  const leads = async (r: ServeProcess) =>
    ((await (await fetch(`http://127.0.0.1:${r.port}/readyz`)).json()) as { leader?: boolean }).leader === true;
  /** Runs of the leader-only job claimed by `r` since `since` (owner is host:pid). */
  const runsBy = async (r: ServeProcess, since: Date) =>
    (
      await db.query<{ occurrence: string }>(`SELECT occurrence FROM job_runs WHERE job = 'gpu check' AND owner LIKE $1 AND at >= $2`, [
        `%:${r.child.pid}`,
        since.toISOString(),
      ])
    ).rows;

  it('moves to another replica within 30 s of SIGSTOP, which runs the schedule; the old leader, woken, follows', async () => {
    await waitUntil(async () => (await Promise.all(replicas.map(leads))).filter(Boolean).length === 1, 'one leader', 15_000);
    const leader = (await leads(replicas[0]!)) ? replicas[0]! : replicas[1]!;
    const other = replicas.find((r) => r !== leader)!;

    leader.child.kill('SIGSTOP');
    const stoppedAt = new Date();
    await waitUntil(() => leads(other), 'the other replica to lead', 30_000);
    const failover = Date.now() - stoppedAt.getTime();
    process.stdout.write(`frozen leader: another leads ${(failover / 1000).toFixed(1)} s after SIGSTOP\n`);
    expect(failover).toBeLessThan(30_000);

    // Woken before the next occurrence falls due: its timers fire with the others', and it must not run them.
    leader.child.kill('SIGCONT');
    const wokenAt = new Date();
    await waitUntil(async () => (await runsBy(other, wokenAt)).length > 0, 'the new leader to run the scheduled check', 75_000);
    expect(await leads(leader)).toBe(false);
    expect(await leads(other)).toBe(true);
    expect(await runsBy(leader, wokenAt)).toEqual([]);
    // It noticed, and said so in its log.
    expect(leader.out() + leader.err()).toContain('scheduler: following');
  }, 150_000);
});

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
