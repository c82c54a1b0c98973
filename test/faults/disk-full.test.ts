import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAILED_PASSES_NOT_READY } from '../../src/outbox/delivery-loop.js';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { workDir } from '../support/run-cli.js';
import { faultEnv, spawnBurnrate, writeConfig, type Proc } from './serve-process.js';

// A full disk under a running serve, made for real: once serve is ready, its file size limit
// (RLIMIT_FSIZE, set from outside with prlimit) is lowered to 1 KiB, so every write that reaches the
// database file or its write-ahead log fails with EFBIG. SQLite reports that as "disk I/O error" (its
// "database or disk is full" is kept for ENOSPC); the delivery passes fail alike. Reads still work,
// as they do on a full disk.

const BACKLOG = 20;
/** prlimit (util-linux) sets a running process's limits; without it (not Linux) there is no way to fill the disk here. */
const HAS_PRLIMIT = spawnSync('prlimit', ['--version']).status === 0;

/** Asks `condition` every 100 ms (it makes HTTP calls) until it holds; fails naming `what` after `timeoutMs`. */
async function poll(condition: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition()); await new Promise((r) => setTimeout(r, 100)))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

interface Ready {
  ok: boolean;
  reasons?: string[];
  checks: Record<string, boolean>;
  delivery: { ok: boolean; failedPassesInRow: number; lastPassError?: string };
}

describe('burnrate serve when the disk fills up (real process, real SQLite, file size limit)', () => {
  let fake: FakeSlackApi;
  const procs: Proc[] = [];
  afterEach(async () => {
    for (const proc of procs.splice(0)) {
      proc.child.kill('SIGKILL');
      await proc.exited;
    }
    await fake?.close();
  });

  it.skipIf(!HAS_PRLIMIT)(
    '/readyz answers 503 and says delivery passes fail because the disk is full; failed passes back off instead of looping',
    async () => {
      fake = await FakeSlackApi.start({
        expect: ['chat.postMessage', 'users.list', 'usergroups.list', 'files.getUploadURLExternal', 'files.completeUploadExternal'],
        now: () => new Date(),
      });
      const cwd = workDir();
      writeConfig(cwd);
      // Alerts waiting to go, so that every delivery pass has an item to lease (a write).
      const store = openStore(join(cwd, 'data', 'burnrate.db'));
      await store.outbox.enqueue(
        Array.from({ length: BACKLOG }, (_, i) => ({
          dedupeKey: `backlog-${i + 1}`,
          target: 'slack:C0LLM',
          message: { summary: `backlog ${i + 1}`, blocks: [{ type: 'text' as const, text: `backlog ${i + 1}` }] },
        })),
        new Date(),
      );
      await store.close();
      fake.failNext('chat.postMessage', { delayMs: 500 }, 200);

      const serve = await spawnBurnrate(cwd, faultEnv(fake.apiUrl));
      procs.push(serve);
      const readyz = async (): Promise<{ status: number; body: Ready } | null> =>
        fetch(`http://127.0.0.1:${serve.port}/readyz`)
          .then(async (res) => ({ status: res.status, body: (await res.json()) as Ready }))
          .catch(() => null);
      await poll(async () => (await readyz())?.status === 200 || serve.child.exitCode !== null, 'serve to be ready', 60_000);
      expect(serve.child.exitCode, serve.err()).toBeNull();

      // The disk is full from now on.
      execFileSync('prlimit', ['--pid', String(serve.child.pid), '--fsize=1024:1024']);
      const fullAt = Date.now();

      let notReady: { status: number; body: Ready } | null = null;
      await poll(
        async () => {
          const answer = await readyz();
          if (answer?.status === 503) notReady = answer;
          return notReady !== null || serve.child.exitCode !== null;
        },
        '/readyz to answer 503',
        30_000,
      );
      const secondsToNotReady = (Date.now() - fullAt) / 1000;
      expect(serve.child.exitCode, serve.err()).toBeNull();
      const { body } = notReady!;
      console.log(`not ready ${secondsToNotReady.toFixed(1)} s after the disk filled: ${body.reasons?.join('; ')}`);
      expect(body.ok).toBe(false);
      expect(body.checks.delivery).toBe(false);
      expect(body.delivery.failedPassesInRow).toBeGreaterThanOrEqual(FAILED_PASSES_NOT_READY);
      expect(body.reasons?.join('\n')).toMatch(/delivery: the last \d+ delivery passes failed: .*(disk is full|disk I\/O error)/);
      // Still alive: the probe that restarts the pod is not the one that failed.
      expect((await fetch(`http://127.0.0.1:${serve.port}/healthz`)).status).toBe(200);

      // Backoff: passes failing 1 s, 2 s, 4 s, 8 s … apart, not every 250 ms (363 passes in 95 s before).
      await new Promise((r) => setTimeout(r, 10_000));
      const after = await readyz();
      const seconds = (Date.now() - fullAt) / 1000;
      const failed = after!.body.delivery.failedPassesInRow;
      console.log(`${failed} failed delivery passes in ${seconds.toFixed(1)} s of a full disk`);
      expect(after!.status).toBe(503);
      // With doubling waits from 1 s, n failed passes need at least 2^(n-1) - 1 s: in s seconds at most
      // log2(s + 1) + 1 of them (one more allowed: a scheduled job's wake runs a pass at once). A tight
      // loop would have made about 4 a second.
      expect(failed).toBeLessThanOrEqual(Math.floor(Math.log2(seconds + 1)) + 2);
      expect(serve.child.exitCode).toBeNull();
    },
    120_000,
  );
});
