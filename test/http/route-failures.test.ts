import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type Route } from '../../src/http/server.js';

describe('the HTTP server when a route fails', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('answers 500 for a route that throws at once or rejects, logs it, and keeps serving the others', async () => {
    const logged: unknown[] = [];
    const routes = new Map<string, Route>([
      [
        'POST /sync',
        () => {
          throw new Error('thrown synchronously');
        },
      ],
      [
        'POST /async',
        async () => {
          throw new Error('rejected');
        },
      ],
    ]);
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      routes,
      health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
      log: { error: (obj: unknown) => logged.push(obj) },
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const path of ['/sync', '/async']) {
      const res = await fetch(`${base}${path}`, { method: 'POST' });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'internal error' });
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(logged).toEqual([
      { err: 'thrown synchronously', route: 'POST /sync' },
      { err: 'rejected', route: 'POST /async' },
    ]);
  });
});
