import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TeamsAuthEndpoints } from '../../../src/chat/teams/teams-adapter.js';
import type { TeamsSettings } from '../../../src/chat/teams/teams-settings.js';
import { FakeBotIdentity } from '../../fakes/fake-bot-identity.js';
import { testDeps } from '../../support/deps.js';
import { CONVERSATIONS, installActivity } from '../../support/teams-activity.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ALICE, teamsDemoConfig } from './teams-test-config.js';

const APP_ID = '00000000-0000-4000-8000-0000000b0700';
const settings: TeamsSettings = {
  insecure: false,
  appId: APP_ID,
  appType: 'MultiTenant',
  password: 'test-secret-not-a-real-one',
  tenantId: null,
};

describe('Teams requests with an app id set: only tokens the Bot Framework signed get in', () => {
  const bed = useTeamsTestbed();
  let identity: FakeBotIdentity;
  beforeEach(async () => {
    identity = await FakeBotIdentity.start();
  });
  afterEach(async () => {
    await identity.close();
  });

  /** botframework-connector's settings that move the channel's OpenID metadata (and token service) to 127.0.0.1. */
  function endpoints(): TeamsAuthEndpoints {
    return {
      ToBotFromChannelOpenIdMetadataUrl: identity.metadataUrl,
      ToBotFromChannelTokenIssuer: identity.issuer,
      ToBotFromEmulatorOpenIdMetadataUrl: identity.metadataUrl,
      ToChannelFromBotLoginUrl: `${identity.origin}/botframework.test`,
      ToChannelFromBotOAuthScope: identity.issuer,
      OAuthUrl: identity.origin,
      CallerId: 'urn:botframework:test',
      ValidateAuthority: false,
    };
  }

  async function start() {
    const t = testDeps(teamsDemoConfig());
    const h = await bed.start(t.deps, { settings, endpoints: endpoints() });
    const activity = installActivity(bed.fake.serviceUrl, ALICE);
    const remembered = async () => (await t.deps.store.conversations.get('msteams', CONVERSATIONS.channel)) !== null;
    return { h, activity, remembered };
  }

  it('accepts a valid channel token: the turn runs and the install is remembered', async () => {
    const { h, activity, remembered } = await start();
    const token = identity.token({ aud: APP_ID, serviceUrl: activity.serviceUrl });
    const res = await h.send(activity, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(await remembered()).toBe(true);
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
