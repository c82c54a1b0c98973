import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { FakeSlackSocket } from '../fakes/fake-slack-socket.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';
import { startServe, type ServeProcess } from '../support/serve-process.js';
import { slashCommandPayload } from '../support/slack-payloads.js';
import { waitFor } from '../support/wait-for.js';
import { TEST_BOT_TOKEN } from '../chat/slack/slack-harness.js';

const APP_TOKEN = 'xapp-1-A0BURNRATE-1111-replica-secret';

// Two replicas in Socket Mode on one Postgres: each opens its own connection to Slack, and an
// envelope Slack hands to both (a connection dropped before its ack, say) is answered once.
describePostgres('replicas in Slack Socket Mode', () => {
  let api: FakeSlackApi;
  let socket: FakeSlackSocket;
  const replicas: ServeProcess[] = [];

  beforeAll(async () => {
    api = await FakeSlackApi.start();
    socket = await FakeSlackSocket.start(api, { appToken: APP_TOKEN });
    const env = {
      DATABASE_URL: await freshDatabase(),
      SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_API_URL: api.apiUrl,
    };
    replicas.push(await startServe(env, 120_000));
    replicas.push(await startServe(env, 120_000));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await socket?.close();
    await api?.close();
  });

  it('opens one connection per replica and answers an envelope both receive once', async () => {
    await socket.waitForConnections(2);
    expect(socket.openConnections).toBe(2);
    const before = api.responses.length;
    const envelope = socket.slashCommand(
      slashCommandPayload({ text: 'budget', user_id: 'U0DEMOADMIN', response_url: api.responseUrl('budget') }),
    );
    const first = await socket.waitForAck(envelope);
    // The newest connection got it; now the other one receives the very same envelope.
    socket.resendOn(envelope, first.connection === 1 ? 2 : 1);
    await waitFor(() => socket.acks.filter((a) => a.envelopeId === envelope).length === 2, 'both acknowledgements', 10_000);
    await waitFor(() => api.responses.length > before, 'the answer', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(api.responses.slice(before).map((r) => r.id)).toEqual(['budget']);
    expect(new Set(socket.acks.filter((a) => a.envelopeId === envelope).map((a) => a.connection)).size).toBe(2);
  });
});
