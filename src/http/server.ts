import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { BurnrateError } from '../domain/errors.js';

export type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface HealthProbe {
  /** Alive: the process answers. */
  alive(): boolean;
  /** Ready: the database is open and the scheduler runs. */
  ready(): Promise<{ ok: boolean; checks: Record<string, boolean>; [detail: string]: unknown }>;
}

/**
 * The one HTTP server of `burnrate serve`: health probes now; chat platforms mount their
 * endpoints (Slack events, Teams messages) through `routes`.
 */
export async function startHttpServer(options: {
  host: string;
  port: number;
  health: HealthProbe;
  routes?: Map<string, Route>;
  /** Where a failing route is reported (its message only: requests may carry secrets). */
  log?: Pick<Logger, 'error'>;
}): Promise<Server> {
  const routes = new Map<string, Route>(options.routes);
  routes.set('GET /healthz', (_req, res) => json(res, options.health.alive() ? 200 : 503, { ok: options.health.alive() }));
  routes.set('GET /readyz', async (_req, res) => {
    const ready = await options.health.ready();
    json(res, ready.ok ? 200 : 503, ready);
  });

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes.get(`${req.method} ${path}`);
    if (!route) return json(res, 404, { error: 'not found' });
    // A route that throws, at once or later, fails its own request and nothing else: an exception
    // escaping this listener would be uncaught and end `burnrate serve`.
    const failed = (error: unknown) => {
      options.log?.error(
        { err: error instanceof Error ? error.message : String(error), route: `${req.method} ${path}` },
        'http route failed',
      );
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
      else if (!res.writableEnded) res.destroy();
    };
    try {
      Promise.resolve(route(req, res)).catch(failed);
    } catch (error) {
      failed(error);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new BurnrateError(
            'burnrate_port_in_use',
            `port ${options.port} on ${options.host} is already in use`,
            'Stop the other process or set PORT to a free port.',
            1,
          ),
        );
      } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
        reject(
          new BurnrateError(
            'burnrate_host_unavailable',
            `cannot listen on ${options.host}: no such address on this machine`,
            'Set HOST to one of its addresses: 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).',
            1,
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(
          new BurnrateError(
            'burnrate_port_denied',
            `not allowed to listen on port ${options.port}`,
            'Ports under 1024 need privileges: set PORT to 1024 or above (3000 by default) and put a proxy in front.',
            1,
          ),
        );
      } else reject(error);
    });
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
