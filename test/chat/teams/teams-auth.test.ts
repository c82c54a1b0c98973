import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TeamsAuthEndpoints } from '../../../src/chat/teams/teams-adapter.js';
import type { TeamsSettings } from '../../../src/chat/teams/teams-settings.js';
import { DeliveryError } from '../../../src/ports/chat-port.js';
import { FakeBotIdentity } from '../../fakes/fake-bot-identity.js';
import { FakeGraph } from '../../fakes/fake-graph.js';
import { testDeps } from '../../support/deps.js';
import { CONVERSATIONS, installActivity } from '../../support/teams-activity.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ALICE, teamsDemoConfig } from './teams-test-config.js';

const APP_ID = '00000000-0000-4000-8000-0000000b0700';
const TENANT_ID = '72f988bf-0000-4000-8000-0000000b0701';
const SECRET = 'test-secret-not-a-real-one';
const settings: TeamsSettings = {
  insecure: false,
  appId: APP_ID,
  appType: 'SingleTenant',
  credential: { kind: 'secret', secret: SECRET },
  tenantId: TENANT_ID,
};

describe('Teams requests with an app id set: only tokens the Bot Framework signed get in', () => {
  const bed = useTeamsTestbed();
  let identity: FakeBotIdentity;
  let entra: FakeGraph;
  beforeEach(async () => {
    identity = await FakeBotIdentity.start();
    entra = await FakeGraph.start({ clientId: APP_ID, clientSecret: SECRET, tenantId: TENANT_ID });
  });
  afterEach(async () => {
    await identity.close();
    await entra.close();
  });

  /**
   * The Agents SDK's settings that move the channel's signing keys to 127.0.0.1 (its authority,
   * under which it reads `/{tenant}/discovery/v2.0/keys` for an issuer other than the Bot
   * Framework's), the issuer accepted, and the fake Entra the bot's own credential signs in at.
   */
  function endpoints(): TeamsAuthEndpoints {
    return { authority: identity.origin, issuers: [identity.issuer], entra: entra.entraOptions() };
  }

  async function start() {
    const t = testDeps(teamsDemoConfig());
    const h = await bed.start(t.deps, { settings, endpoints: endpoints() });
    const activity = installActivity(bed.fake.serviceUrl, ALICE);
    const remembered = async () => (await t.deps.store.conversations.get('msteams', CONVERSATIONS.channel)) !== null;
    return { h, activity, remembered };
  }

  it('accepts a valid channel token: the turn runs, the install is remembered, and the bot signs in to Entra as itself', async () => {
    const { h, activity, remembered } = await start();
    const token = identity.token({ aud: APP_ID, serviceUrl: activity.serviceUrl });
    const res = await h.send(activity, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(await remembered()).toBe(true);
    // The SDK signs in for the connector: client credentials for the Bot Framework's scope, in the bot's tenant.
    expect(entra.tokenRequests).toContainEqual({
      tenant: TENANT_ID,
      clientId: APP_ID,
      scope: 'https://api.botframework.com/.default',
      ok: true,
    });
  });

  it('posts proactively with a token Entra issued to the bot', async () => {
    const { h, activity } = await start();
    await h.send(activity, { authorization: `Bearer ${identity.token({ aud: APP_ID, serviceUrl: activity.serviceUrl })}` });
    await h.chat.post(CONVERSATIONS.channel, { summary: 'hello', blocks: [{ type: 'text', text: 'hello' }] });
    expect(bed.fake.calls.map((c) => [c.op, c.authorized])).toEqual([['send', true]]);
  });

  it('says the bot could not sign in, and that nothing was posted, when Entra refuses its credential', async () => {
    const t = testDeps(teamsDemoConfig());
    const wrong: TeamsSettings = { ...settings, credential: { kind: 'secret', secret: 'not-the-secret-entra-knows' } };
    const h = await bed.start(t.deps, { settings: wrong, endpoints: endpoints() });
    await t.deps.store.conversations.save({
      platform: 'msteams',
      conversationId: CONVERSATIONS.channel,
      kind: 'channel',
      reference: {
        serviceUrl: bed.fake.serviceUrl,
        channelId: 'msteams',
        conversation: { id: CONVERSATIONS.channel },
        bot: { id: '28:bot' },
      },
      updatedAt: new Date(),
    });
    const failed = await h.chat
      .post(CONVERSATIONS.channel, { summary: 'hello', blocks: [{ type: 'text', text: 'hello' }] })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(DeliveryError);
    expect(failed).toMatchObject({ permanent: false, maybeDelivered: false });
    expect((failed as Error).message).toContain('could not sign in to Entra');
    expect((failed as Error).message).not.toContain('not-the-secret-entra-knows');
    expect(bed.fake.calls).toEqual([]);
  });

  it.each([
    ['no Authorization header', () => ({})],
    [
      'a token signed with a key the issuer never published',
      (a: { serviceUrl: string }) => ({
        authorization: `Bearer ${identity.token({ aud: APP_ID, serviceUrl: a.serviceUrl }, FakeBotIdentity.strangerKey())}`,
      }),
    ],
    [
      'a token for another bot',
      (a: { serviceUrl: string }) => ({
        authorization: `Bearer ${identity.token({ aud: '11111111-0000-4000-8000-000000000000', serviceUrl: a.serviceUrl })}`,
      }),
    ],
    [
      'an expired token',
      (a: { serviceUrl: string }) => ({
        authorization: `Bearer ${identity.token({ aud: APP_ID, serviceUrl: a.serviceUrl, expiresIn: -3600 })}`,
      }),
    ],
    [
      'a correctly signed token without an expiry',
      (a: { serviceUrl: string }) => ({
        authorization: `Bearer ${identity.token({ aud: APP_ID, serviceUrl: a.serviceUrl, expiresIn: null })}`,
      }),
    ],
    [
      'a token from another issuer',
      (a: { serviceUrl: string }) => ({
        authorization: `Bearer ${identity.token({ aud: APP_ID, serviceUrl: a.serviceUrl, iss: 'https://evil.example' })}`,
      }),
    ],
    [
      'a token minted for another service URL',
      () => ({ authorization: `Bearer ${identity.token({ aud: APP_ID, serviceUrl: 'https://smba.evil.example/' })}` }),
    ],
    ['a bearer that is not a JWT', () => ({ authorization: 'Bearer not-a-token' })],
  ])('rejects %s with 401 and runs nothing', async (_what, headers) => {
    const { h, activity, remembered } = await start();
    const res = await h.send(activity, headers(activity) as Record<string, string>);
    expect(res.status).toBe(401);
    expect(await remembered()).toBe(false);
    expect(bed.fake.calls).toEqual([]);
  });
});
