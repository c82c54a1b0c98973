import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { FakeSlackSocket, type Envelope } from '../../fakes/fake-slack-socket.js';
import { testDeps } from '../../support/deps.js';
import { appHomeOpenedPayload, blockActionsPayload, slashCommandPayload } from '../../support/slack-payloads.js';
import { startSlackSocket, waitFor } from './slack-harness.js';

const APP_TOKEN = 'xapp-1-A0BURNRATE-0000-socket-secret';

describe('repeated Socket Mode deliveries (real Bolt and @slack/socket-mode, fake Slack)', () => {
  let fake: FakeSlackApi;
  let socket: FakeSlackSocket;
  let harness: Awaited<ReturnType<typeof startSlackSocket>> | undefined;

  beforeEach(async () => {
    fake = await FakeSlackApi.start();
    socket = await FakeSlackSocket.start(fake, { appToken: APP_TOKEN });
    harness = await startSlackSocket(testDeps(demoConfig()).deps, fake, APP_TOKEN);
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    await socket.close();
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  const acksOf = (id: string) => socket.acks.filter((a) => a.envelopeId === id).length;
  /** Sends an envelope again as it was, envelope_id included (the fake keeps a given id). */
  const resend = (id: string) => socket.deliver(socket.envelopes.find((e) => e.envelope_id === id) as Omit<Envelope, 'envelope_id'>);
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it('acks an envelope sent twice (same envelope_id) both times and runs its command once', async () => {
    const id = socket.slashCommand(slashCommandPayload({ text: 'help', response_url: fake.responseUrl('help') }));
    await socket.waitForAck(id);
    expect(resend(id)).toBe(id);
    await waitFor(() => acksOf(id) === 2, 'the second ack');
    await waitFor(() => fake.responses.length === 1, 'the answer');
    await settle();
    await harness!.settled();
    expect(fake.responses.map((r) => r.id)).toEqual(['help']);
    expect(harness!.dispatched).toHaveLength(1);
  });

  it('runs an event envelope sent twice (same envelope_id, no retry mark) once: the envelope id alone is the key', async () => {
    fake.expect('views.publish');
    const id = socket.event(appHomeOpenedPayload('U0DEMOBOB'));
    await socket.waitForAck(id);
    resend(id);
    await waitFor(() => acksOf(id) === 2, 'the second ack');
    await waitFor(() => fake.callsOf('views.publish').length === 1, 'views.publish');
    await settle();
    expect(fake.callsOf('views.publish')).toHaveLength(1);
  });

  it('runs a click delivered twice in different envelopes (same trigger_id and action_ts) once', async () => {
    const click = blockActionsPayload({ actionId: 'instance.teleport', value: 'x', response_url: fake.responseUrl('click') });
    const first = socket.interactive(click);
    const second = socket.interactive(click);
    await socket.waitForAck(first);
    await socket.waitForAck(second);
    await waitFor(() => fake.responses.length === 1, 'the private answer');
    await settle();
    await harness!.settled();
    expect(fake.responses.map((r) => r.id)).toEqual(['click']);
    expect(harness!.dispatched).toHaveLength(1);
  });

  it('still runs distinct deliveries, each once', async () => {
    const ids = ['a', 'b', 'c'].map((id) => socket.slashCommand(slashCommandPayload({ text: 'help', response_url: fake.responseUrl(id) })));
    for (const id of ids) await socket.waitForAck(id);
    await waitFor(() => fake.responses.length === 3, 'three answers');
    await settle();
    expect(fake.responses.map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
  });
});
