import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Interaction } from '../../../src/ports/interaction.js';
import { createAnswerer } from '../../../src/chat/slack/answer/create-answerer.js';
import { ANSWER_THREAD_NICE } from '../../../src/chat/slack/answer/lower-thread-priority.js';
import { ANSWER_LIMITS, WorkerAnswerer } from '../../../src/chat/slack/answer/worker-answerer.js';
import { dispatch } from '../../../src/inbound/dispatcher.js';
import type { Deps } from '../../../src/deps.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { spendRow, testDeps } from '../../support/deps.js';
import { postSigned, slashCommandBody } from '../../support/slack-request.js';
import { startSlackServer, waitFor } from './slack-harness.js';
import { ADMIN, BOB } from '../../support/demo-org.js';

/** The compiled worker (npm test builds first): worker threads run plain JavaScript, not the test's TypeScript. */
const WORKER_SCRIPT = new URL('../../../dist/src/answer-worker.js', import.meta.url);
/** The store's SQLite busy timeout: how long a write waits for a lock another connection holds. */
const BUSY_TIMEOUT_MS = 5_000;

describe('slash commands answered on worker threads (real Bolt over HTTP, file database)', () => {
  let fake: FakeSlackApi;
  let dir: string;
  let deps: Deps;
  let logged: string[];
  let answerer: WorkerAnswerer | undefined;
  let closeServer: (() => Promise<void>) | undefined;
  const dispatchedHere: Interaction[] = [];

  beforeEach(async () => {
    fake = await FakeSlackApi.start();
    dir = mkdtempSync(join(tmpdir(), 'burnrate-answers-'));
    ({ deps } = testDeps(demoConfig(), '2026-11-21T09:00:00Z', join(dir, 'burnrate.db')));
    logged = [];
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => logged.push(chunk.toString()));
    deps.log = pino({ level: 'info' }, sink);
    dispatchedHere.length = 0;
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: [spendRow('llm-training', '2026-11-20', 1234.5), spendRow('ml-research', '2026-11-20', 99)],
        dataThrough: '2026-11-21T00:00:00Z',
      },
    ]);
  });
  afterEach(async () => {
    await closeServer?.();
    await answerer?.close();
    answerer = undefined;
    await deps.store.close();
    fake.assertNoUnexpectedCalls();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Anything the main thread dispatches is recorded: with workers on, commands must not be among it.
  const here = async (d: Deps, interaction: Interaction) => {
    dispatchedHere.push(interaction);
    await dispatch(d, interaction);
  };

  async function start(env: NodeJS.ProcessEnv = { BURNRATE_ANSWER_WORKERS: '1' }, tuning: { limits?: Partial<typeof ANSWER_LIMITS> } = {}) {
    const created = createAnswerer(deps, {
      dbPath: join(dir, 'burnrate.db'),
      env: { LOG_LEVEL: 'silent', ...env },
      dispatch: here,
      script: WORKER_SCRIPT,
      ...tuning,
    });
    expect(created).toBeInstanceOf(WorkerAnswerer);
    answerer = created as WorkerAnswerer;
    // Until a worker has started, answers are computed in process; these tests are about the worker.
    await answerer.ready();
    const h = await startSlackServer(deps, fake, here, answerer);
    closeServer = h.close;
    return h;
  }

  const command = (h: { url: string }, text: string, id: string, user = ADMIN) =>
    postSigned(h.url, slashCommandBody({ text, user_id: user, response_url: fake.responseUrl(id) }));
  const answerOf = (id: string) => fake.responses.find((r) => r.id === id);

  /** Another connection holding the write lock, as a long import or a second process would. */
  function holdWriteLock(): Database.Database {
    const other = new Database(join(dir, 'burnrate.db'));
    other.exec('BEGIN IMMEDIATE');
    return other;
  }

  it('answers help, spend and budget at response_url from the worker, never on the thread that acks', async () => {
    const h = await start();
    for (const [i, text] of ['help', 'spend', 'budget llm-training'].entries()) {
      const res = await command(h, text, `r${i}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
    }
    await waitFor(() => fake.responses.length === 3, 'three answers at response_url', 15_000);
    expect(answerOf('r0')?.body).toMatchObject({ response_type: 'ephemeral', replace_original: false, text: 'burnrate commands' });
    expect(JSON.stringify(answerOf('r1')?.body.blocks)).toContain('$1,234.50');
    expect(JSON.stringify(answerOf('r2')?.body.blocks)).toContain('$150,000.00');
    expect(dispatchedHere).toEqual([]);
    expect(fake.calls).toEqual([]); // answers go to response_url, never through the Web API
    expect(answerer?.describe()).toBe('answers: 1 worker thread');
  });

  it.runIf(process.platform === 'linux')('answer workers run at a lower priority than the thread that acks', async () => {
    await start({ BURNRATE_ANSWER_WORKERS: '2' });
    // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value (after the command name's ")").
    const niceOf = (tid: number) => Number(readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const workers = answerer!.osThreadIds;
    expect(workers).toHaveLength(2);
    for (const tid of workers) expect(niceOf(tid)).toBe(Math.min(19, niceOf(process.pid) + ANSWER_THREAD_NICE));
  });

  it("holds a user group's roles in the worker as the main thread's directory says", async () => {
    fake.expect('users.list', 'usergroups.list');
    fake.userGroups.push({ id: 'S0LEADS', handle: 'research-leads', name: 'Research leads', users: ['U0LEAD'] });
    deps.config.teams.find((t) => t.id === 'ml-research')!.approvers = ['@research-leads'];
    const h = await start();
    await deps.chat[0]!.people!.refresh!();
    await command(h, 'whoami', 'who', 'U0LEAD');
    await command(h, 'budget set ml-research 75k', 'lead-set', 'U0LEAD');
    await waitFor(() => answerOf('who') !== undefined && answerOf('lead-set') !== undefined, 'both answers', 15_000);
    expect(JSON.stringify(answerOf('who')?.body.blocks)).toContain('@research-leads');
    expect(answerOf('lead-set')?.body.text).toBe('The monthly budget of ml-research is now $75,000.00. The next budget check uses it.');
    expect(dispatchedHere).toEqual([]); // both answered on the worker
  });

  it('budget set writes through the worker, to the database the main thread reads, audited', async () => {
    const h = await start();
    expect((await command(h, 'budget set ml-research 70k', 'set', BOB)).status).toBe(200);
    await waitFor(() => answerOf('set') !== undefined, 'the confirmation', 15_000);
    expect(answerOf('set')?.body.text).toBe('The monthly budget of ml-research is now $70,000.00. The next budget check uses it.');
    expect((await deps.store.budgets.list()).map((b) => [b.team, b.cadence, b.amount, b.byUser])).toEqual([
      ['ml-research', 'monthly', 70_000, BOB],
    ]);
    const audit = (await deps.store.audit.list()).filter((a) => a.action === 'budget set');
    expect(audit.map((a) => [a.userId, a.result])).toEqual([[BOB, 'ok']]);
    // The worker hands the change back: the main thread, which has the chat ports, announces it in the channel.
    const announced = async () =>
      (await deps.store.outbox.due(new Date('2100-01-01'))).some((item) =>
        item.message.summary.startsWith("ML Research's monthly budget is now $70,000.00"),
      );
    for (let tries = 0; tries < 50 && !(await announced()); tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await announced()).toBe(true);
    // The worker's clock is the caller's: the audit time is the test's fixed now, not the real one.
    expect(audit[0]?.at.toISOString().slice(0, 13)).toBe('2026-11-21T09');
    expect(dispatchedHere).toEqual([]);
  });

  it('an error inside a command reaches the user as the short apology, without internals', { timeout: 60_000 }, async () => {
    const h = await start();
    const lock = holdWriteLock();
    try {
      expect((await command(h, 'budget set ml-research 70k', 'busy', BOB)).status).toBe(200);
      await waitFor(() => answerOf('busy') !== undefined, 'the apology', BUSY_TIMEOUT_MS + 25_000);
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
    const body = answerOf('busy')!.body;
    expect(body.text).toBe('Something went wrong on our side.');
    expect(JSON.stringify(body)).toMatch(/give your admin reference [0-9a-f]{8}/);
    expect(JSON.stringify(body)).not.toMatch(/SQLITE|locked|\bat .*\.(ts|js):\d+/i);
    expect(await deps.store.budgets.list()).toEqual([]);
    // The worker is still fine: the next command is answered.
    await command(h, 'whoami', 'after');
    await waitFor(() => answerOf('after') !== undefined, 'the next answer', 15_000);
    expect(JSON.stringify(answerOf('after')?.body)).toContain('admin');
  });

  it('a worker that dies is replaced; the answer it had in flight gets the apology, never a retry', { timeout: 60_000 }, async () => {
    const h = await start();
    const before = answerer!.threads[0]!.threadId;
    // A response_url that holds the first POST (the worker's answer) open: the worker dies while it waits.
    const slow = await holdingResponseUrl();
    try {
      expect(
        (await postSigned(h.url, slashCommandBody({ text: 'budget set ml-research 70k', user_id: BOB, response_url: slow.url }))).status,
      ).toBe(200);
      await waitFor(() => slow.held === 1, 'the answer on its way', 15_000);
      // As an out-of-memory kill would: the thread ends wherever it is.
      await answerer!.threads[0]!.terminate();
      await waitFor(() => slow.bodies.length === 1, 'the apology from the main thread', 15_000);
    } finally {
      await slow.close();
    }
    expect(slow.bodies[0]?.text).toBe('Something went wrong on our side.');
    const reference = /reference ([0-9a-f]{8})/.exec(JSON.stringify(slow.bodies[0]))?.[1];
    expect(logged.join('')).toContain(`"reference":"${reference}"`);
    expect(logged.join('')).toContain('answer worker stopped; starting another');
    // The command ran once and was not run again: one audit entry, whatever the lost answer said.
    expect((await deps.store.audit.list()).filter((a) => a.action === 'budget set')).toHaveLength(1);

    expect(answerer!.threads).toHaveLength(1);
    expect(answerer!.threads[0]!.threadId).not.toBe(before);
    await answerer!.ready();
    await command(h, 'budget set ml-research 80k', 'again', BOB);
    await waitFor(() => answerOf('again') !== undefined, 'the replacement worker answering', 15_000);
    expect(answerOf('again')?.body.text).toContain('now $80,000.00');
    expect((await deps.store.audit.list()).filter((a) => a.action === 'budget set')).toHaveLength(2);
    expect(dispatchedHere).toEqual([]);
  });

  it('answers in process when the workers cannot start at all', async () => {
    const missing = new URL('./no-such-worker.js', WORKER_SCRIPT);
    answerer = createAnswerer(deps, {
      dbPath: join(dir, 'burnrate.db'),
      env: { LOG_LEVEL: 'silent', BURNRATE_ANSWER_WORKERS: '1' },
      dispatch: here,
      script: missing,
    }) as WorkerAnswerer;
    await waitFor(() => answerer!.describe().includes('could not start'), 'the pool to give up', 15_000);
    const h = await startSlackServer(deps, fake, here, answerer);
    closeServer = h.close;
    await command(h, 'help', 'fallback');
    await waitFor(() => answerOf('fallback') !== undefined, 'the in-process answer');
    expect(answerOf('fallback')?.body.text).toBe('burnrate commands');
    expect(dispatchedHere.map((i) => i.kind === 'command' && i.text)).toEqual(['help']);
    expect(logged.join('')).toContain('answer workers keep failing to start; answering in process');
  });

  it('answers in process while no worker has started yet, instead of making the person wait', async () => {
    const starting = new URL('../../fixtures/never-ready-worker.mjs', import.meta.url);
    answerer = createAnswerer(deps, {
      dbPath: join(dir, 'burnrate.db'),
      env: { LOG_LEVEL: 'silent', BURNRATE_ANSWER_WORKERS: '1' },
      dispatch: here,
      script: starting,
    }) as WorkerAnswerer;
    const h = await startSlackServer(deps, fake, here, answerer);
    closeServer = h.close;
    await command(h, 'help', 'early');
    await waitFor(() => answerOf('early') !== undefined, 'the in-process answer');
    expect(answerOf('early')?.body.text).toBe('burnrate commands');
    expect(dispatchedHere.map((i) => i.kind === 'command' && i.text)).toEqual(['help']);
    expect(answerer.describe()).toBe('answers: 1 worker thread');
  });

  /**
   * Holds the write lock so that a `budget set` blocks the worker (SQLite waits synchronously) and
   * `queued` more commands pile up behind it; then sends one more and returns its acknowledgement's
   * body. The lock is released and everything taken answered before it returns.
   */
  async function oneMoreWhileStuck(h: { url: string }, queued: number, pause = 0): Promise<unknown> {
    const lock = holdWriteLock();
    let ack: unknown;
    try {
      await command(h, 'budget set ml-research 70k', 'stuck', BOB);
      for (let i = 0; i < queued; i++) expect(await (await command(h, 'help', `q${i}`)).text()).toBe('');
      await waitFor(() => answerer!.inFlight === queued + 1, 'answers piling up');
      await new Promise((resolve) => setTimeout(resolve, pause));
      const res = await command(h, 'budget set ml-research 1', 'one-more', BOB);
      expect(res.status).toBe(200);
      const text = await res.text();
      ack = text === '' ? '' : JSON.parse(text);
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
    await waitFor(() => answerOf('stuck') !== undefined && answerOf(`q${queued - 1}`) !== undefined, 'the answers taken', 30_000);
    // Slack has the answers a moment before this thread hears from the worker that they went out.
    await waitFor(() => answerer!.inFlight === 0, 'the worker to report them delivered');
    expect(answerOf('stuck')?.body.text).toContain('now $70,000.00');
    return ack;
  }
  const BUSY = { response_type: 'ephemeral', text: 'burnrate has more commands than it can answer right now, so it did not run this one.' };

  it('turns a command away in its acknowledgement once too many answers wait, and never runs it', { timeout: 60_000 }, async () => {
    const h = await start({ BURNRATE_ANSWER_WORKERS: '1' }, { limits: { waitingPerWorker: 8 } });
    expect(await oneMoreWhileStuck(h, 7)).toMatchObject(BUSY);
    expect(answerOf('one-more')).toBeUndefined();
    expect((await deps.store.budgets.list()).map((b) => b.amount)).toEqual([70_000]);
    // Caught up: the next command is taken and answered; the log has one line each way.
    expect(await (await command(h, 'help', 'later')).text()).toBe('');
    await waitFor(() => answerOf('later') !== undefined, 'an answer once caught up');
    const log = logged.join('');
    expect(log.match(/answers are falling behind; turning new commands away until they catch up/g)).toHaveLength(1);
    expect(log).toMatch(/"turnedAway":1,.*answers caught up; taking commands again/);
  });

  it('turns a command away once answers queue for a worker past the limit, however briefly they waited', { timeout: 60_000 }, async () => {
    const h = await start({ BURNRATE_ANSWER_WORKERS: '1' }, { limits: { queuedPerWorker: 1 } });
    // 32 on the stuck worker (its most at once), one more queued for it: the queue is full at once.
    expect(await oneMoreWhileStuck(h, 32, 0)).toMatchObject(BUSY);
    expect(answerOf('one-more')).toBeUndefined();
  });

  it('takes a command however long the queued answers have waited, while the queue is short', { timeout: 60_000 }, async () => {
    const h = await start({ BURNRATE_ANSWER_WORKERS: '1' }, { limits: { queuedPerWorker: 2 } });
    // One answer has waited for the stuck worker for over a second: a slow machine, not a full queue.
    expect(await oneMoreWhileStuck(h, 32, 1_200)).toBe('');
    await waitFor(() => answerOf('one-more') !== undefined, 'the last one answered too', 30_000);
    expect(logged.join('')).not.toContain('falling behind');
  });

  it('takes every command while answers keep up, however long one answer takes on its worker', { timeout: 60_000 }, async () => {
    const h = await start({ BURNRATE_ANSWER_WORKERS: '1' }, { limits: { waitingPerWorker: 8 } });
    // The answer on the lock has taken over a second, but no answer waits for the worker.
    expect(await oneMoreWhileStuck(h, 6, 1_200)).toBe('');
    await waitFor(() => answerOf('one-more') !== undefined, 'the last one answered too');
    expect(logged.join('')).not.toContain('falling behind');
  });

  it('close() waits for answers in flight before the threads stop', { timeout: 60_000 }, async () => {
    const h = await start();
    const lock = holdWriteLock();
    expect((await command(h, 'budget set ml-research 90k', 'drain', BOB)).status).toBe(200);
    await waitFor(() => answerer!.inFlight === 1, 'the answer in flight');
    const closed = answerer!.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(answerOf('drain')).toBeUndefined();
    lock.exec('ROLLBACK');
    lock.close();
    await closed;
    expect(answerOf('drain')?.body.text).toContain('now $90,000.00');
    expect(answerer!.inFlight).toBe(0);
  });
});

/** A response_url on 127.0.0.1 that never answers its first POST and records the bodies of the others. */
async function holdingResponseUrl() {
  const bodies: Record<string, any>[] = [];
  const state = { held: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.held++ === 0) return; // left hanging
      bodies.push(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, any>);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/response`,
    bodies,
    get held() {
      return Math.min(state.held, 1);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
