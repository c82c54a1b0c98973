import { once } from 'node:events';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { startServe, type ServeProcess } from '../../support/serve-process.js';
import { postSigned, slashCommandBody, TEST_SIGNING_SECRET } from '../../support/slack-request.js';
import { TEST_BOT_TOKEN, waitFor } from './slack-harness.js';
import { BOB } from '../../support/demo-org.js';

describe('burnrate serve with answer workers', () => {
  let fake: FakeSlackApi;
  let serve: ServeProcess | undefined;
  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage'] });
  });
  afterEach(async () => {
    if (serve?.child.exitCode === null) await serve.stop();
    await fake.close();
  });

  it('on SIGTERM stops taking requests but finishes and delivers the answers already acknowledged', async () => {
    serve = await startServe({
      SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
      SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      BURNRATE_ANSWER_WORKERS: '2',
    });
    expect(serve.out()).toContain('answers: 2 worker threads');
    const url = `http://127.0.0.1:${serve.port}/slack/events`;
    const db = join(serve.cwd, 'data', 'burnrate.db');

    // Another connection holds the write lock, so `budget set` is still waiting when SIGTERM comes.
    const lock = new Database(db);
    lock.exec('BEGIN IMMEDIATE');
    const acked = await postSigned(
      url,
      slashCommandBody({ text: 'budget set ml-research 70k', user_id: BOB, response_url: fake.responseUrl('set') }),
    );
    expect(acked.status).toBe(200);
    const exited = once(serve.child, 'exit');
    serve.child.kill('SIGTERM');
    await waitFor(() => serve!.out().includes('stopping (SIGTERM)'), 'serve to begin stopping');
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.responses).toEqual([]);
    expect(serve.child.exitCode).toBeNull(); // still draining
    await expect(postSigned(url, slashCommandBody({ text: 'help', response_url: fake.responseUrl('late') }))).rejects.toThrow();

    lock.exec('ROLLBACK');
    lock.close();
    const [code] = await exited;
    expect(code, serve.err()).toBe(0);
    expect(fake.responses.map((r) => [r.id, r.body.text])).toEqual([
      ['set', 'The monthly budget of ml-research is now $70,000.00. The next budget check uses it.'],
    ]);
    const after = new Database(db, { readonly: true });
    try {
      expect(after.prepare('SELECT team, amount, by_user AS byUser FROM budget_overrides').all()).toEqual([
        { team: 'ml-research', amount: 70_000, byUser: BOB },
      ]);
    } finally {
      after.close();
    }
  });
});
