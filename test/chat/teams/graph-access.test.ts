/**
 * How the bot signs in to Microsoft Graph with the Teams settings it already has: its app id and
 * credential through @azure/identity, in its own tenant (single-tenant) or in the tenant it was
 * installed in (multi-tenant); and what it says where it cannot. Tokens come from the fake Entra
 * endpoint, asked for by the real credential.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botCredential } from '../../../src/chat/teams/bot-credential.js';
import { EntraGroups } from '../../../src/chat/teams/entra-groups.js';
import { graphAccess } from '../../../src/chat/teams/graph-access.js';
import type { TeamsSettings } from '../../../src/chat/teams/teams-settings.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import { FakeGraph } from '../../fakes/fake-graph.js';

const GROUP = { id: '9a0f0000-0000-4000-8000-00000000b001', displayName: 'ML leads', mailNickname: 'ml-leads', members: ['u1'] };

describe('signing in to Microsoft Graph as the bot', () => {
  let graph: FakeGraph;
  let logged: string[];
  const log = () =>
    pino(
      { level: 'warn' },
      new Writable({
        write(chunk, _encoding, done) {
          logged.push(String(chunk));
          done();
        },
      }),
    );
  beforeEach(async () => {
    graph = await FakeGraph.start();
    graph.users.push({ id: 'u1', displayName: 'Una', userPrincipalName: 'una@example.onmicrosoft.com' });
    graph.groups.push(GROUP);
    logged = [];
  });
  afterEach(async () => {
    await graph.close();
  });

  const endpoints = () => ({ graphUrl: graph.origin, entra: graph.entraOptions() });

  it('a single-tenant bot uses its app id, client secret and tenant from the Teams settings', async () => {
    const settings: TeamsSettings = {
      insecure: false,
      appId: graph.app.clientId,
      appType: 'SingleTenant',
      credential: { kind: 'secret', secret: graph.app.clientSecret },
      tenantId: graph.app.tenantId,
    };
    const access = graphAccess(settings, openStore(':memory:').conversations, endpoints());
    expect(access.unavailable).toBeNull();
    const groups = new EntraGroups(access.client, () => ['@ml-leads'], log());
    expect(await groups.refresh()).toBe(true);
    expect(groups.group('@ml-leads')?.members).toEqual(['u1']);
    expect(graph.tokenRequests.map((r) => [r.tenant, r.clientId, r.ok])).toEqual([[graph.app.tenantId, graph.app.clientId, true]]);
  });

  it('a multi-tenant bot reads Graph in the tenant it was installed in, and waits until it knows one', async () => {
    const store = openStore(':memory:');
    const settings: TeamsSettings = {
      insecure: false,
      appId: graph.app.clientId,
      appType: 'MultiTenant',
      credential: { kind: 'secret', secret: graph.app.clientSecret },
      tenantId: null,
    };
    const groups = new EntraGroups(graphAccess(settings, store.conversations, endpoints()).client, () => ['@ml-leads'], log());
    expect(await groups.refresh()).toBe(false);
    expect(graph.tokenRequests).toEqual([]);
    expect(logged.join('')).toContain('the tenant is not known until burnrate is installed in a team');
    await store.conversations.save({
      platform: 'msteams',
      conversationId: '19:ml@thread.tacv2',
      kind: 'channel',
      reference: { serviceUrl: 'https://smba.example/', conversation: { id: '19:ml@thread.tacv2', tenantId: graph.app.tenantId } },
      updatedAt: new Date(),
    });
    expect(await groups.refresh()).toBe(true);
    expect(graph.tokenRequests.map((r) => r.tenant)).toEqual([graph.app.tenantId]);
  });

  it('reads Graph with a managed identity too, and says why there is no Graph without authentication', () => {
    const store = openStore(':memory:');
    const msi: TeamsSettings = {
      insecure: false,
      appId: 'app',
      appType: 'UserAssignedMSI',
      credential: { kind: 'managedIdentity' },
      tenantId: 'tenant',
    };
    expect(graphAccess(msi, store.conversations).unavailable).toBeNull();
    expect(graphAccess({ insecure: true }, store.conversations).unavailable).toContain('without an app id');
  });

  it('a refused secret reads nothing and logs the Entra error code, never the secret', async () => {
    const settings: TeamsSettings = {
      insecure: false,
      appId: graph.app.clientId,
      appType: 'SingleTenant',
      credential: { kind: 'secret', secret: 'a-wrong-secret-value' },
      tenantId: graph.app.tenantId,
    };
    const groups = new EntraGroups(
      graphAccess(settings, openStore(':memory:').conversations, endpoints()).client,
      () => ['@ml-leads'],
      log(),
    );
    expect(await groups.refresh()).toBe(false);
    expect(groups.group('@ml-leads')).toBeUndefined();
    const text = logged.join('');
    expect(text).toContain('invalid_client');
    expect(text).not.toContain('a-wrong-secret-value');
  });
});

describe('signing in to Microsoft Graph with the credentials besides a secret', () => {
  let graph: FakeGraph;
  const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/teams/${name}`, import.meta.url));
  beforeEach(async () => {
    graph = await FakeGraph.start();
    graph.users.push({ id: 'u1', displayName: 'Una', userPrincipalName: 'una@example.onmicrosoft.com' });
    graph.groups.push(GROUP);
  });
  afterEach(async () => {
    await graph.close();
  });

  async function readsGroups(credential: Extract<TeamsSettings, { insecure: false }>['credential']): Promise<boolean> {
    const settings: TeamsSettings = {
      insecure: false,
      appId: graph.app.clientId,
      appType: 'SingleTenant',
      credential,
      tenantId: graph.app.tenantId,
    };
    const access = graphAccess(settings, openStore(':memory:').conversations, { graphUrl: graph.origin, entra: graph.entraOptions() });
    const groups = new EntraGroups(access.client, () => ['@ml-leads'], pino({ level: 'silent' }));
    return (await groups.refresh()) && groups.group('@ml-leads')?.members.join() === 'u1';
  }

  it('a certificate: the assertion is signed with its key and names it by thumbprint; an unknown certificate is refused', async () => {
    const certificate = { kind: 'certificate' as const, certPemFile: fixture('bot-app-cert.pem'), certKeyFile: fixture('bot-app-key.pem') };
    expect(await readsGroups(certificate)).toBe(false);
    graph.certificates.push(readFileSync(certificate.certPemFile, 'utf8'));
    expect(await readsGroups(certificate)).toBe(true);
  });

  it('workload identity: the projected token file is the assertion, read from the file', async () => {
    const tokenFile = join(mkdtempSync(join(tmpdir(), 'burnrate-wi-')), 'token');
    writeFileSync(tokenFile, 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6YnVybnJhdGUifQ.c2lnbmF0dXJl');
    expect(await readsGroups({ kind: 'workloadIdentity', tokenFile })).toBe(false);
    graph.federatedTokens.add(readFileSync(tokenFile, 'utf8'));
    expect(await readsGroups({ kind: 'workloadIdentity', tokenFile })).toBe(true);
  });
});

describe('a certificate file that cannot be read', () => {
  it('stops with the variable and the path, not a stack', () => {
    const missing = { kind: 'certificate' as const, certPemFile: '/nonexistent/bot.crt', certKeyFile: '/nonexistent/bot.key' };
    expect(() => botCredential('app', 'tenant', missing)).toThrow(/certKeyFile \/nonexistent\/bot\.key cannot be read \(ENOENT\)/);
  });
});
