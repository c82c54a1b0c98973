import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../support/free-port.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { cli, workDir } from '../../support/run-cli.js';
import { postSigned, slashCommandBody, TEST_SIGNING_SECRET } from '../../support/slack-request.js';
import { TEST_BOT_TOKEN, waitFor } from './slack-harness.js';
import { DEMO_CHANNELS } from '../../support/demo-org.js';

const BIN = fileURLToPath(new URL('../../../bin/burnrate.js', import.meta.url));

/**
 * Only what the process needs, nothing inherited: no cloud credentials or proxies from the
 * developer's shell, cloud metadata probes off, so the only network is 127.0.0.1.
 */
function isolatedEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    LOG_LEVEL: 'error',
    AWS_EC2_METADATA_DISABLED: 'true',
    METADATA_SERVER_DETECTION: 'none',
    NO_PROXY: '127.0.0.1,localhost',
    ...extra,
  };
}

describe('burnrate serve with Slack', () => {
  let fake: FakeSlackApi;
  beforeEach(async () => {
    fake = await FakeSlackApi.start({
      // Budget alerts bring their chart into the thread as a file.
      expect: ['chat.postMessage', 'users.list', 'usergroups.list', 'files.getUploadURLExternal', 'files.completeUploadExternal'],
    });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('in HTTP mode posts the demo alerts to Slack, answers /healthz and a signed slash command on one port', async () => {
    const port = await freePort();
    const env = isolatedEnv({
      PORT: String(port),
      SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
      SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
    });
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd: workDir(), env });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(() => out.includes('press Ctrl-C to stop') || child.exitCode !== null, 'serve to start', 60_000);
      expect(child.exitCode, `serve exited:\n${out}\n${err}`).toBeNull();

      expect(out).toContain('slack: HTTP mode, Slack requests arrive at POST /slack/events on this server');
      expect(out).not.toContain('── #'); // Slack is the chat: nothing is printed as a terminal "channel"
      expect(out).not.toContain('console:'); // and the local console is off unless CONSOLE=on
      const alerts = Number(/budget check: \d+ open finding\(s\), (\d+) new alert\(s\)/.exec(out)?.[1]);
      expect(alerts).toBeGreaterThan(0);
      // The idle-GPU check runs after the budget check: its alerts (one per team with idle GPUs) go out too.
      const idleAlerts = Number(/idle-GPU check: \d+ idle instance\(s\), (\d+) alert\(s\) queued/.exec(out)?.[1]);
      expect(idleAlerts).toBeGreaterThanOrEqual(0);
      // Then the runaway-sweep check (the demo's lr-warmup sweep runs over llm-training's cap): its alert goes out too.
      const sweepAlerts = Number(/sweep caps: \d+ sweep\(s\) over a cap, (\d+) alert\(s\) queued/.exec(out)?.[1]);
      expect(sweepAlerts).toBeGreaterThanOrEqual(0);
      // And the spend anomaly check (the demo's runaway search in vision): on a first start its messages are new posts.
      const anomalyAlerts = Number(/anomaly check: \d+ open anomal(?:y|ies), (\d+) message\(s\) queued/.exec(out)?.[1]);
      expect(anomalyAlerts).toBeGreaterThanOrEqual(0);
      // Alerts leave through the outbox, which may still be sending when the start line prints.
      const queued = alerts + idleAlerts + sweepAlerts + anomalyAlerts;
      // A budget alert's chart is a post of its own in the alert's thread, drawn by Slack (data_visualization).
      const isChart = (p: { args: Record<string, unknown> }) => JSON.stringify(p.args.blocks ?? '').includes('data_visualization');
      const alertPosts = () => fake.callsOf('chat.postMessage').filter((p) => !isChart(p));
      await waitFor(() => alertPosts().length >= queued, 'the queued alerts to be posted');
      await new Promise((resolve) => setTimeout(resolve, 500)); // and nothing more after them
      const posts = fake.callsOf('chat.postMessage');
      expect(alertPosts()).toHaveLength(queued);
      expect(posts.filter(isChart).length).toBeLessThanOrEqual(alerts);
      expect(posts.filter(isChart).every((p) => p.args.thread_ts !== undefined)).toBe(true);
      // Team channels, and direct messages to the people idle instances' burnrate:owner tags name.
      expect(posts.every((p) => p.authorized && (DEMO_CHANNELS.includes(p.args.channel) || /^U0DEMO/.test(p.args.channel)))).toBe(true);
      expect(out).toContain('slack people and user groups: read');
      expect(posts.map((p) => p.args.channel)).toContain('C0DEMOLLMTR');
      expect(posts.some((p) => /^LLM Training is on track to spend \d+% of its \w+ \d{4} budget/.test(p.args.text))).toBe(true);

      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const res = await postSigned(
        `http://127.0.0.1:${port}/slack/events`,
        slashCommandBody({ text: 'help', response_url: fake.responseUrl('serve') }),
      );
      expect(res.status).toBe(200);
      await waitFor(() => fake.responses.length === 1, 'the answer at response_url');
      expect(fake.responses[0]?.body).toMatchObject({ response_type: 'ephemeral', text: 'burnrate commands' });
      const forged = await postSigned(
        `http://127.0.0.1:${port}/slack/events`,
        slashCommandBody({ text: 'help', response_url: fake.responseUrl() }),
        { secret: 'wrong' },
      );
      expect(forged.status).toBe(401);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    fake.assertNoUnexpectedCalls(); // in particular no auth.test: Bolt is given its authorization
    expect(fake.responses).toHaveLength(1);
    expect(`${out}${err}`).not.toContain(TEST_BOT_TOKEN);
    expect(`${out}${err}`).not.toContain(TEST_SIGNING_SECRET);
    expect(err).toBe('');
  });

  it.each([
    [{ SLACK_BOT_TOKEN: TEST_BOT_TOKEN }, 'SLACK_SIGNING_SECRET'],
    [{ SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET }, 'SLACK_BOT_TOKEN'],
    [{ SLACK_APP_TOKEN: 'xapp-1-A0-secret' }, 'SLACK_BOT_TOKEN is not; Socket Mode needs SLACK_BOT_TOKEN and SLACK_APP_TOKEN'],
  ])('fails at start, naming the missing variable, when Slack is half configured (%o)', async (env, missing) => {
    const result = await cli(['serve'], { env: { ...env, PORT: '0' } });
    expect(result.code).toBe(2);
    expect(result.err).toContain(`but ${missing}`);
    expect(result.err).not.toContain('xapp-1-A0-secret');
    expect(result.err).not.toContain(TEST_BOT_TOKEN);
    expect(result.err).not.toContain(TEST_SIGNING_SECRET);
    expect(result.out).toBe('');
  });
});
