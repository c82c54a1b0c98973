import type { Server } from 'node:http';
import { afterEach, beforeEach } from 'vitest';
import type { AddressInfo } from 'node:net';
import { dispatch as realDispatch } from '../../../src/inbound/dispatcher.js';
import { createTeamsApp, type Dispatch, type TeamsApp } from '../../../src/chat/teams/teams-app.js';
import type { TeamsAuthEndpoints } from '../../../src/chat/teams/teams-adapter.js';
import { createTeamsChat, type TeamsChat, type TeamsPeopleOptions } from '../../../src/chat/teams/teams-chat.js';
import type { TeamsSettings } from '../../../src/chat/teams/teams-settings.js';
import type { Deps } from '../../../src/deps.js';
import { startHttpServer } from '../../../src/http/server.js';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';

/**
 * The real CloudAdapter at POST /api/messages on burnrate's own HTTP server on 127.0.0.1, its
 * TeamsChat as the only chat port. Without settings it runs unauthenticated, as with
 * BURNRATE_INSECURE_DEV=1; activities name the fake connector as their serviceUrl.
 */
export async function startTeamsServer(
  deps: Deps,
  options: { settings?: TeamsSettings; endpoints?: TeamsAuthEndpoints; dispatch?: Dispatch; people?: TeamsPeopleOptions } = {},
) {
  const settings = options.settings ?? { insecure: true };
  const chat: TeamsChat = createTeamsChat(settings, deps.store.conversations, deps.log, options.endpoints, options.people);
  deps.chat = [chat];
  const teams: TeamsApp = createTeamsApp(deps, { dispatch: options.dispatch ?? realDispatch, authenticated: !settings.insecure });
  const server: Server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    routes: teams.routes,
    health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/api/messages`;
  return {
    chat,
    teams,
    url,
    /** Posts an activity as the connector would; returns the status and the parsed body, if any. */
    async send(activity: object, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(activity),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // a plain-text answer (e.g. the reason of a 401) stays text
      }
      return { status: res.status, body };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TeamsHarness = Awaited<ReturnType<typeof startTeamsServer>>;

/**
 * A fresh fake connector per test and, once `start`ed, the Teams server; after each test the
 * server stops and the fake must have seen no unexpected call and played every queued failure.
 */
export function useTeamsTestbed() {
  const bed = {
    fake: undefined as unknown as FakeBotConnector,
    harness: undefined as TeamsHarness | undefined,
    async start(deps: Deps, options: Parameters<typeof startTeamsServer>[1] = {}): Promise<TeamsHarness> {
      bed.harness = await startTeamsServer(deps, options);
      return bed.harness;
    },
  };
  beforeEach(async () => {
    bed.fake = await FakeBotConnector.start();
  });
  afterEach(async () => {
    await bed.harness?.close();
    bed.harness = undefined;
    bed.fake.assertNoUnexpectedCalls();
    bed.fake.assertDone();
    await bed.fake.close();
  });
  return bed;
}
