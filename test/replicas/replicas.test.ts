import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { stringify } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';
import { RoundRobinProxy } from '../../bench/round-robin-proxy.js';
import { workDir } from '../support/run-cli.js';
import { startServe, type ServeProcess } from '../support/serve-process.js';
import { blockActionsBody, postSigned, slashCommandBody, TEST_SIGNING_SECRET } from '../support/slack-request.js';
import { waitFor } from '../support/wait-for.js';
import { TEST_BOT_TOKEN } from '../chat/slack/slack-harness.js';
import { ADMIN, BOB } from '../support/demo-org.js';

// Three real `serve` processes on one Postgres behind a round-robin proxy, as a Kubernetes
// Deployment with three replicas behind its Service. They start together on a new database, run
// their first checks at once, take commands and clicks in turn, run the schedule on one leader,
// and lose that leader to SIGKILL while it is delivering. What must hold: every message posted
// once, every scheduled occurrence run once, every click acted on once, a new leader within 30 s.
const LEASE_S = 30; // the shortest lease burnrate.yml allows

describePostgres('three replicas on one Postgres', () => {
  let url: string;
  let db: pg.Client;
  let slack: FakeSlackApi;
  let proxy: RoundRobinProxy;
  const replicas: ServeProcess[] = [];
  let occurrence: Date;

  beforeAll(async () => {
    url = await freshDatabase();
    db = new pg.Client({ connectionString: url });
    await db.connect();
    // Real time: a message's ts is when it was posted, as the in-doubt look-up after a takeover expects.
    slack = await FakeSlackApi.start({ now: () => new Date() });
    // Every post takes a while, so deliveries are in flight when the leader dies.
    slack.failNext('chat.postMessage', { delayMs: 150 }, 100_000);
    // The scheduled jobs (budget check, review, digests) all fall due at one minute, in UTC, soon
    // after the replicas are up.
    occurrence = new Date(Math.ceil((Date.now() + 100_000) / 60_000) * 60_000);
    const at = occurrence.toISOString().slice(11, 16);
    const config = JSON.parse(JSON.stringify(demoConfig())) as ReturnType<typeof demoConfig>;
    config.teams.forEach((team) => Object.assign(team, { timezone: 'UTC', digest: 'daily' }));
    Object.assign(config, { schedule: { budgetCheck: at }, digest: { ...config.digest, at }, review: { ...config.review, at } });
    Object.assign(config.delivery, { lease: `${LEASE_S}s` });
    const cwd = workDir();
    writeFileSync(join(cwd, 'burnrate.yml'), stringify(config));
    const env = {
      DATABASE_URL: url,
      SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
      SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      BURNRATE_ANSWER_WORKERS: '1',
      LOG_LEVEL: 'info',
    };
    // Started together on an empty database: their migrations meet, and one of them applies them.
    replicas.push(...(await Promise.all([0, 1, 2].map(() => startServe(env, 120_000, cwd)))));
    proxy = await RoundRobinProxy.start(replicas.map((r) => r.port));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await proxy?.close();
    await slack?.close();
    await db?.end();
  });

  const rows = async <R>(sql: string, values: unknown[] = []) => (await db.query<R & pg.QueryResultRow>(sql, values)).rows;
  const leaders = async (of: ServeProcess[]) => {
    const states = await Promise.all(
      of.map(async (r) => {
        const ready = (await (await fetch(`http://127.0.0.1:${r.port}/readyz`)).json()) as { leader?: boolean };
        return ready.leader === true;
      }),
    );
    return of.filter((_, i) => states[i]);
  };
  const outboxSettled = async () => (await rows<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE status <> 'sent'`))[0]!.n === 0;
  const posted = () =>
    slack.messages.map((m) => (m.metadata?.event_payload.key as string | undefined) ?? `${m.channel} ${m.threadTs} ${m.text}`);

  it('runs the first checks on every replica, and posts what they found once', async () => {
    await waitUntil(outboxSettled, 'the first alerts to be delivered', 60_000);
    const keys = posted();
    expect(keys.length).toBeGreaterThan(4);
    expect(duplicates(keys)).toEqual([]);
    expect((await leaders(replicas)).length).toBe(1);
  });

  it('answers each command once, whichever replica it reaches, and a repeated delivery not again', async () => {
    const before = slack.responses.length;
    const bodies = ['spend', 'budget', 'idle', 'top', 'spend ml-research', 'help'].map((text, i) =>
      slashCommandBody({ text, user_id: BOB, channel_id: 'C0DEMORSRCH', response_url: slack.responseUrl(`cmd-${i}`) }),
    );
    for (const body of bodies) expect((await postSigned(`${proxy.url}/slack/events`, body)).status).toBe(200);
    // The first command again, as a second delivery reaching the next replica.
    expect((await postSigned(`${proxy.url}/slack/events`, bodies[0]!)).status).toBe(200);
    await waitFor(() => slack.responses.length - before >= bodies.length, 'every answer', 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    const answered = slack.responses.slice(before).map((r) => r.id);
    expect(answered.sort()).toEqual(bodies.map((_, i) => `cmd-${i}`).sort());
    expect(new Set(proxy.routed.filter((r) => r.path === '/slack/events').map((r) => r.port)).size).toBe(3);
  });

  it('acts on a click once when it reaches two replicas', async () => {
    const alert = slack.calls.find((c) => c.method === 'chat.postMessage' && JSON.stringify(c.args.blocks ?? '').includes('"budget.ack"'));
    expect(alert, 'a budget alert with an Acknowledge button').toBeDefined();
    type Block = { elements?: { action_id?: string; value?: string }[] };
    const raw = alert!.args.blocks as string | Block[];
    const blocks = typeof raw === 'string' ? (JSON.parse(raw) as Block[]) : raw;
    const button = blocks.flatMap((b) => b.elements ?? []).find((e) => e.action_id === 'budget.ack') as { value: string };
    const click = blockActionsBody({
      actionId: 'budget.ack',
      value: button.value,
      channel: alert!.args.channel as string,
      messageTs: alert!.answer?.ts as string,
      user_id: ADMIN,
      response_url: slack.responseUrl('click'),
    });
    expect((await postSigned(`${proxy.url}/slack/events`, click)).status).toBe(200);
    expect((await postSigned(`${proxy.url}/slack/events`, click)).status).toBe(200);
    await waitUntil(async () => (await rows('SELECT 1 FROM acknowledgements')).length === 1, 'the acknowledgement', 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    // One run of the action: a second would have been audited too (as a duplicate) and answered privately.
    const audited = await rows<{ result: string; user: string }>(
      `SELECT result, user_id AS user FROM audit_log WHERE action = 'budget.ack'`,
    );
    expect(audited).toEqual([{ result: 'ok', user: ADMIN }]);
    expect(slack.responses.filter((r) => r.id === 'click')).toEqual([]);
    expect(slack.callsOf('chat.update').filter((c) => c.args.ts === alert!.answer?.ts)).toHaveLength(1);
  });

  it('runs each scheduled occurrence once, survives the leader killed mid-delivery, and a new one leads within 30 s', async () => {
    const [leader] = await leaders(replicas);
    expect(leader).toBeDefined();
    // The occurrence falls due, the leader runs it, and its alerts are being delivered when it dies.
    await waitUntil(
      async () => (await rows(`SELECT 1 FROM job_runs WHERE occurrence = $1`, [occurrence.toISOString()])).length >= 3,
      'the occurrence to run',
      // Counted from the minute it falls due: how long the replicas took to start is not the leader's time.
      Math.max(0, occurrence.getTime() - Date.now()) + 150_000,
    );
    await waitUntil(
      async () =>
        (await rows(`SELECT 1 FROM outbox WHERE status = 'sending' AND lease_owner LIKE $1`, [`%:${leader!.child.pid}:%`])).length > 0,
      'the leader to hold a delivery',
      60_000,
    );
    leader!.child.kill('SIGKILL');
    const killedAt = Date.now();
    const survivors = replicas.filter((r) => r !== leader);
    let failover = 0;
    await waitUntil(
      async () => {
        const found = (await leaders(survivors)).length === 1;
        if (found) failover = Date.now() - killedAt;
        return found;
      },
      'a new leader',
      30_000,
    );
    expect(failover).toBeLessThan(30_000);
    process.stdout.write(`replica failover: new leader ${(failover / 1000).toFixed(1)} s after SIGKILL\n`);

    // The dead leader's leases run out and the others take its messages over, in doubt.
    await waitUntil(outboxSettled, 'every message delivered', LEASE_S * 1000 + 60_000);
    expect(duplicates(posted())).toEqual([]);
    // Every job due at that minute was claimed (one row each: the key is the job and the minute;
    // on a quarter hour the idle-GPU check is due as well), and what it sent went out once: each
    // team's digest of that day.
    const runs = await rows<{ job: string }>(`SELECT job FROM job_runs WHERE occurrence = $1`, [occurrence.toISOString()]);
    expect(runs.map((r) => r.job)).toEqual(expect.arrayContaining(['budget check UTC', 'digest UTC', 'monthly review UTC']));
    const digests = slack.messages.filter((m) => String(m.metadata?.event_payload.key ?? '').startsWith('digest:'));
    expect(digests.map((m) => m.channel).sort()).toEqual(
      demoConfig()
        .teams.map((t) => t.slack!.channel)
        .sort(),
    );
  }, 400_000);
});

function duplicates(keys: string[]): string[] {
  return keys.filter((key, i) => keys.indexOf(key) !== i);
}

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
