import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { workDir } from '../support/run-cli.js';
import { faultEnv, spawnBurnrate, stop, writeConfig, type Proc } from './serve-process.js';

const BACKLOG = 40;

describe('burnrate serve restarted with a backlog (real process, slow fake Slack)', () => {
  let fake: FakeSlackApi;
  const procs: Proc[] = [];
  afterEach(async () => {
    for (const proc of procs.splice(0)) await stop(proc);
    await fake?.close();
  });

  it(`with ${BACKLOG} alerts pending and Slack taking a second per post, /readyz answers 200 before the backlog drains, the schedule is on, and a stop does not wait for the backlog`, async () => {
    fake = await FakeSlackApi.start({
      expect: ['chat.postMessage', 'users.list', 'usergroups.list', 'files.getUploadURLExternal', 'files.completeUploadExternal'],
      now: () => new Date(),
    });
    const cwd = workDir();
    writeConfig(cwd);
    // The backlog a restart finds: alerts queued by a process that died before delivering them.
    const store = openStore(join(cwd, 'data', 'burnrate.db'));
    const queuedAt = new Date();
    await store.outbox.enqueue(
      Array.from({ length: BACKLOG }, (_, i) => ({
        dedupeKey: `backlog-${i + 1}`,
        target: 'slack:C0LLM',
        message: { summary: `backlog ${i + 1}`, blocks: [{ type: 'text' as const, text: `backlog ${i + 1}` }] },
      })),
      queuedAt,
    );
    await store.close();
    fake.failNext('chat.postMessage', { delayMs: 1_000 }, 200);

    const started = Date.now();
    const serve = await spawnBurnrate(cwd, faultEnv(fake.apiUrl));
    procs.push(serve);
    type Ready = { ok: boolean; checks: Record<string, boolean> };
    let ready: Ready | null = null;
    for (const deadline = started + 15_000; ready === null && serve.child.exitCode === null && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 100));
      ready = await fetch(`http://127.0.0.1:${serve.port}/readyz`)
        .then((res) => (res.status === 200 ? (res.json() as Promise<Ready>) : null))
        .catch(() => null);
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`ready after ${seconds.toFixed(1)} s; posts made: ${fake.messages.length}`);
    expect(serve.child.exitCode, serve.err()).toBeNull();
    // Ready within seconds of the process listening, whatever the backlog: the start no longer waits
    // for it (it took 223 s for this backlog). The wall time includes starting Node and the first
    // checks, so it is bounded loosely here (a loaded CI machine); the posts made say the rest.
    expect(ready, serve.err()).not.toBeNull();
    expect(seconds).toBeLessThan(30);
    expect(ready!.checks).toMatchObject({ scheduler: true, firstChecks: true, delivery: true });
    expect(serve.out()).toContain('scheduled: ');
    // Ready long before the backlog is through: at a second a post, nearly all of it is still waiting.
    expect(fake.messages.filter((m) => m.text.startsWith('backlog')).length).toBeLessThan(10);
    // Stopping waits for the post in flight, not for the backlog.
    const stopping = Date.now();
    expect(await stop(serve)).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5_000);
  });
});
