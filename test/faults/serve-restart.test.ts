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
    // When the process first answers at all (/healthz): Node started, modules loaded, store opened.
    let listening: number | null = null;
    for (const deadline = started + 30_000; ready === null && serve.child.exitCode === null && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(`http://127.0.0.1:${serve.port}/readyz`).catch(() => null);
      if (res) listening ??= Date.now();
      ready = res?.status === 200 ? ((await res.json()) as Ready) : null;
    }
    const seconds = (Date.now() - started) / 1000;
    const fromListening = listening === null ? NaN : (Date.now() - listening) / 1000;
    console.log(
      `ready ${seconds.toFixed(1)} s after spawn, ${fromListening.toFixed(1)} s after the first answer (start-up ${(seconds - fromListening).toFixed(1)} s); posts made: ${fake.messages.length}`,
    );
    expect(serve.child.exitCode, serve.err()).toBeNull();
    expect(ready, serve.err()).not.toBeNull();
    // The target: ready in under 10 s, whatever the backlog (the start used to wait for it: 223 s for
    // this one). It is measured from the process's first answer; before that is Node's start-up and
    // module loading, which grows with the machine's load (about 2 s idle; 11–13 s from spawn were
    // seen at a load average of 12 on 2 cores), so from spawn only a loose bound holds.
    expect(fromListening).toBeLessThan(10);
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
