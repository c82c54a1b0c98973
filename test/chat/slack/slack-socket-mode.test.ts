import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/chat/dispatcher.js';
import { createSlackApp } from '../../../src/chat/slack/slack-app.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { testDeps } from '../../support/deps.js';
import { slackEnv } from './slack-harness.js';

const APP_TOKEN = 'xapp-1-A0TEST-0000-secret';

describe('Socket Mode', () => {
  let fake: FakeSlackApi;
  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['apps.connections.open'] });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('is chosen by SLACK_APP_TOKEN, needs no route on our server, and says so', () => {
    const { deps } = testDeps({});
    const slack = createSlackApp(deps, { env: slackEnv(fake, { SLACK_APP_TOKEN: APP_TOKEN }), dispatch });
    expect(slack.mode).toBe('socket');
    expect([...slack.routes.keys()]).toEqual([]);
    expect(slack.describe()).toContain('no public URL needed');
    expect(fake.calls).toEqual([]); // building the app calls nothing
  });

  it('fails start with a clear error, without the token, when Slack refuses the app token', async () => {
    const { deps } = testDeps({});
    // invalid_auth is one of the errors the Socket Mode client gives up on; others it retries forever.
    fake.failNext('apps.connections.open', { error: 'invalid_auth' });
    const slack = createSlackApp(deps, { env: slackEnv(fake, { SLACK_APP_TOKEN: APP_TOKEN }), dispatch });
    const error = await slack.start().then(() => null, (e: Error & { code?: string }) => e);
    expect(error).toMatchObject({ code: 'burnrate_slack_connect_failed' });
    expect(error?.message).not.toContain(APP_TOKEN);
    expect(error?.message).toContain('invalid_auth');
    expect(fake.callsOf('apps.connections.open')).toHaveLength(1);
    expect(fake.callsOf('apps.connections.open').every((c) => c.authorized)).toBe(true);
    await slack.stop().catch(() => {});
  });
});
