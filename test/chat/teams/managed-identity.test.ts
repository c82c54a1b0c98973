/**
 * The managed identity setups, through @azure/identity against App Service's identity endpoint
 * (the fake's): a UserAssignedMSI bot is the identity itself; a single-tenant app with a federated
 * credential trusts an identity and takes its token as the app's assertion. Both read Graph and
 * sign the bot in to the Bot Connector. Own file: MSAL decides the managed identity source once
 * per process, from the environment set here.
 */
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { botCredential } from '../../../src/chat/teams/bot-credential.js';
import { EntraGroups } from '../../../src/chat/teams/entra-groups.js';
import { graphAccess } from '../../../src/chat/teams/graph-access.js';
import type { TeamsSettings } from '../../../src/chat/teams/teams-settings.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import { FakeGraph } from '../../fakes/fake-graph.js';

const IDENTITY = '7d0c0000-0000-4000-8000-0000000b0ff1';
const GROUP = { id: '9a0f0000-0000-4000-8000-00000000b001', displayName: 'ML leads', mailNickname: 'ml-leads', members: ['u1'] };

describe('the bot signed in by a managed identity', () => {
  let graph: FakeGraph;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    graph = await FakeGraph.start();
    for (const [name, value] of Object.entries(graph.managedIdentityEnv())) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    await graph.close();
  });
  beforeEach(() => {
    graph.users.push({ id: 'u1', displayName: 'Una', userPrincipalName: 'una@example.onmicrosoft.com' });
    graph.groups.push(GROUP);
  });
  afterEach(() => {
    graph.users.length = 0;
    graph.groups.length = 0;
    graph.managedIdentities.clear();
    graph.managedIdentityRequests.length = 0;
  });

  async function readsGroups(settings: TeamsSettings): Promise<boolean> {
    const access = graphAccess(settings, openStore(':memory:').conversations, { graphUrl: graph.origin, entra: graph.entraOptions() });
    const groups = new EntraGroups(access.client, () => ['@ml-leads'], pino({ level: 'silent' }));
    return (await groups.refresh()) && groups.group('@ml-leads')?.members.join() === 'u1';
  }

  it('UserAssignedMSI: the identity (the bot app id) gets the Graph token itself; another identity is refused', async () => {
    const settings: TeamsSettings = {
      insecure: false,
      appId: IDENTITY,
      appType: 'UserAssignedMSI',
      credential: { kind: 'managedIdentity' },
      tenantId: graph.app.tenantId,
    };
    expect(await readsGroups(settings)).toBe(false);
    graph.managedIdentities.add(IDENTITY);
    expect(await readsGroups(settings)).toBe(true);
    expect(graph.managedIdentityRequests.at(-1)).toEqual({ clientId: IDENTITY, resource: graph.origin, ok: true });
    // The same credential serves the Bot Connector's scope.
    const token = await botCredential(IDENTITY, graph.app.tenantId, { kind: 'managedIdentity' }, graph.entraOptions()).getToken(
      'https://api.botframework.com/.default',
    );
    expect(token?.token).toBeTruthy();
    expect(graph.managedIdentityRequests.at(-1)).toMatchObject({ resource: 'https://api.botframework.com', ok: true });
  });

  it('a federated credential: the identity token for the token exchange is the app assertion at Entra', async () => {
    graph.managedIdentities.add(IDENTITY);
    const settings: TeamsSettings = {
      insecure: false,
      appId: graph.app.clientId,
      appType: 'SingleTenant',
      credential: { kind: 'federated', managedIdentityClientId: IDENTITY },
      tenantId: graph.app.tenantId,
    };
    expect(await readsGroups(settings)).toBe(true);
    expect(graph.managedIdentityRequests.map((r) => r.resource)).toEqual(['api://AzureADTokenExchange']);
    expect(graph.tokenRequests.at(-1)).toMatchObject({ clientId: graph.app.clientId, tenant: graph.app.tenantId, ok: true });
  });
});
