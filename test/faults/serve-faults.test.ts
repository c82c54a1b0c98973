import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { closeServer } from '../fakes/http-body.js';
import { expireLeases } from '../support/expire-leases.js';
import { workDir } from '../support/run-cli.js';
import { postSigned, slashCommandBody } from '../support/slack-request.js';
import { waitFor } from '../support/wait-for.js';
import { FAULT_CONFIG, faultEnv, readyz, spawnBurnrate, started, stop, writeConfig, type Proc } from './serve-process.js';

/**
 * Every alert the first checks queued: the budget check's, and the idle-GPU check's and sweep
 * caps' when the demo's GPUs are idle at the hour the test runs (the demo metrics follow the clock).
 */
function alertsQueued(proc: Proc): number {
  const others = [...proc.out().matchAll(/^(?:idle-GPU check|sweep caps): .*?(\d+) alert\(s\) queued/gm)].map((m) => Number(m[1]));
  return budgetAlertsQueued(proc) + others.reduce((a, b) => a + b, 0);
}

/** The budget check's new alerts, from serve's start line: each brings its chart into its thread, as a file. */
function budgetAlertsQueued(proc: Proc): number {
  const budget = /budget check: \d+ open finding\(s\), (\d+) new alert\(s\)/.exec(proc.out());
  if (!budget) throw new Error(`no budget check line:\n${proc.out()}\n${proc.err()}`);
  return Number(budget[1]);
}

/** Charts Slack drew in alert threads (each once): posts Slack took that carry a data_visualization block. */
function charts(fake: FakeSlackApi): number {
  return fake
    .callsOf('chat.postMessage')
    .filter((c) => c.answer !== undefined && JSON.stringify(c.args.blocks ?? '').includes('data_visualization')).length;
}

/** Alerts Slack took: every message but the charts. */
function alertPosts(fake: FakeSlackApi): number {
  return fake.messages.length - charts(fake);
}

/**
 * Each posted text with the number of times its channel (or thread) got it: anything above 1 is a
 * duplicate. Two alerts of one budget each carry the same chart title in their own thread.
 */
function duplicates(fake: FakeSlackApi): string[] {
  const seen = new Map<string, number>();
  for (const m of fake.messages) {
    const key = `${m.channel}${m.threadTs ? ` thread ${m.threadTs}` : ''} ${m.text}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([text, n]) => `${n}x ${text}`);
}

describe('burnrate serve under faults (real process, fake Slack Web API)', () => {
  let fake: FakeSlackApi;
  const procs: Proc[] = [];
  beforeEach(async () => {
    fake = await FakeSlackApi.start({
      expect: [
        'chat.postMessage',
        'conversations.history',
        'users.list',
        'usergroups.list',
        'files.getUploadURLExternal',
        'files.completeUploadExternal',
      ],
      now: () => new Date(),
    });
  });
  afterEach(async () => {
    for (const proc of procs.splice(0)) await stop(proc);
    await fake.close();
  });
  const spawnServe = async (cwd: string, extra: NodeJS.ProcessEnv = {}) => {
    const proc = await spawnBurnrate(cwd, faultEnv(fake.apiUrl, extra));
    procs.push(proc);
    return proc;
  };

  it('a throttle and a long outage: every alert arrives once, nothing fails, and the Retry-After holds every post back', async () => {
    const cwd = workDir();
    writeConfig(cwd);
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    // Far more failures in a row than the 8 attempts an item used to get before it was dropped.
    fake.failNext('chat.postMessage', { status: 503 }, 40);
    const serve = await spawnServe(cwd);
    await started(serve);
    const alerts = alertsQueued(serve);
    const budgetCharts = budgetAlertsQueued(serve);
    expect(alerts).toBeGreaterThanOrEqual(3);
    await waitFor(
      () => alertPosts(fake) >= alerts && charts(fake) >= budgetCharts,
      'every alert (and chart) delivered after the outage',
      30_000,
    );
    const calls = fake.callsOf('chat.postMessage');
    const throttled = calls[0]!;
    expect(calls.filter((c) => c !== throttled && c.at < throttled.at + 1_000)).toEqual([]);
    expect(alertPosts(fake)).toBe(alerts);
    expect(duplicates(fake)).toEqual([]);
    const ready = await readyz(serve);
    expect(charts(fake)).toBe(budgetCharts);
    expect(ready.outbox).toMatchObject({ pending: 0, sending: 0, failed: 0, sent: alerts + budgetCharts, suspectedDuplicates: 0 });
    expect(await stop(serve)).toBe(0);
    fake.assertDone();
  });

  it('kill -9 while a post is in flight: after a restart the alert is found in the channel, not posted again', async () => {
    const cwd = workDir();
    writeConfig(cwd);
    // Slack takes the first post but answers only after 3 s; the process is killed meanwhile.
    fake.failNext('chat.postMessage', { delayMs: 3_000 });
    const first = await spawnServe(cwd);
    await waitFor(() => fake.callsOf('chat.postMessage').length === 1, 'the first post to reach Slack', 60_000);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await waitFor(() => fake.messages.length === 1, 'Slack to take the post of the killed process', 10_000);
    // Restarted after the dead process's lease ran out (2 minutes on the database's clock).
    expect(expireLeases(join(cwd, 'data', 'burnrate.db'))).toBe(1);
    const second = await spawnServe(cwd);
    await started(second);
    await waitFor(() => alertPosts(fake) >= 3, 'the other alerts', 20_000);
    let ready = await readyz(second);
    // Waits for the queue to drain: none pending and none still in flight (a loaded machine sends the last one late).
    for (
      const deadline = Date.now() + 20_000;
      (ready.outbox.pending !== 0 || ready.outbox.sending !== 0) && Date.now() < deadline;
      ready = await readyz(second)
    )
      await new Promise((r) => setTimeout(r, 100));
    expect(ready.outbox).toMatchObject({ pending: 0, sending: 0, failed: 0, suspectedDuplicates: 0 });
    expect(fake.messages.length).toBe(ready.outbox.sent!);
    expect(duplicates(fake)).toEqual([]);
    expect(fake.callsOf('conversations.history').length).toBeGreaterThanOrEqual(1);
  });

  it('two serve processes on one database deliver each queued alert once', async () => {
    const cwd = workDir();
    writeConfig(cwd);
    // Alerts queued (for Slack) by a check, not delivered: both processes find them waiting.
    const check = await spawnBurnrate(cwd, faultEnv(fake.apiUrl), ['check']);
    expect(await check.exited).toBe(0);
    for (let i = 0; i < 20; i++) fake.failNext('chat.postMessage', { delayMs: 150 });
    const [a, b] = [await spawnServe(cwd), await spawnServe(cwd)];
    await Promise.all([started(a), started(b)]);
    // Started means ready, not delivered: the backlog drains behind it.
    let ready = await readyz(a);
    for (const deadline = Date.now() + 20_000; (ready.outbox.pending ?? 0) + (ready.outbox.sending ?? 0) !== 0 && Date.now() < deadline; )
      ready = await new Promise((r) => setTimeout(r, 100)).then(() => readyz(a));
    expect(ready.outbox.sent).toBeGreaterThanOrEqual(3);
    await waitFor(() => fake.messages.length >= ready.outbox.sent!, 'every alert delivered', 20_000);
    expect(fake.messages.length).toBe(ready.outbox.sent!);
    expect(duplicates(fake)).toEqual([]);
    expect((await readyz(b)).outbox).toMatchObject({ pending: 0, sending: 0, failed: 0, sent: ready.outbox.sent });
  });

  it('signed hostile requests get 400 or 401 and serve goes on answering', async () => {
    const cwd = workDir();
    writeConfig(cwd);
    const serve = await spawnServe(cwd);
    await started(serve);
    const events = `http://127.0.0.1:${serve.port}/slack/events`;
    for (const body of ['payload=null', 'payload=%5B%5D', 'payload=%7B', 'null']) {
      const type = body === 'null' ? 'application/json' : 'application/x-www-form-urlencoded';
      expect((await postSigned(events, body, { headers: { 'content-type': type } })).status, body).toBe(400);
    }
    const aheadBy = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;
    expect(
      (await postSigned(events, slashCommandBody({ text: 'help', response_url: fake.responseUrl() }), { timestamp: aheadBy(6 * 60) }))
        .status,
    ).toBe(401);
    expect(
      (await postSigned(events, slashCommandBody({ text: 'help', response_url: fake.responseUrl() }), { timestamp: aheadBy(365 * 86_400) }))
        .status,
    ).toBe(401);
    // Still alive and answering.
    const res = await postSigned(events, slashCommandBody({ text: 'help', response_url: fake.responseUrl('after') }));
    expect(res.status).toBe(200);
    await waitFor(() => fake.responses.some((r) => r.id === 'after'), 'the answer to a valid command');
    expect((await fetch(`http://127.0.0.1:${serve.port}/healthz`)).status).toBe(200);
    expect(await stop(serve)).toBe(0);
  });

  it('a metrics backend that refuses (401) at start does not stop serve: budget alerts still go out', async () => {
    const prometheus = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"status":"error","error":"unauthorized"}');
    });
    await new Promise<void>((resolve) => prometheus.listen(0, '127.0.0.1', resolve));
    try {
      const cwd = workDir();
      const url = `http://127.0.0.1:${(prometheus.address() as AddressInfo).port}`;
      writeConfig(
        cwd,
        `${FAULT_CONFIG}\ngpu:\n  metrics: [{ type: prometheus, url: "${url}" }]\n  inventory: [{ type: ec2, regions: [us-east-1] }]\n`,
      );
      const serve = await spawnServe(cwd, {
        AWS_ACCESS_KEY_ID: 'AKIDTEST',
        AWS_SECRET_ACCESS_KEY: 'test-secret',
        AWS_ENDPOINT_URL: url,
        AWS_REGION: 'us-east-1',
      });
      await started(serve);
      expect(serve.out()).toMatch(/idle-GPU check failed: .*\(serve goes on; the schedule tries again\)/);
      const alerts = alertsQueued(serve);
      await waitFor(() => alertPosts(fake) >= alerts, 'the budget alerts', 10_000);
      expect((await readyz(serve)).ok).toBe(true);
      expect(await stop(serve)).toBe(0);
    } finally {
      await closeServer(prometheus);
    }
  });
});
