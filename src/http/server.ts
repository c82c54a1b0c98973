import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BurnrateError } from '../errors.js';

export type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface HealthProbe {
  /** Alive: the process answers. */
  alive(): boolean;
  /** Ready: the database is open and the scheduler runs. */
  ready(): Promise<{ ok: boolean; checks: Record<string, boolean> }>;
}

/**
 * The one HTTP server of `burnrate serve`: health probes now; chat platforms mount their
 * endpoints (Slack events, Teams messages) through `routes`.
 */
export async function startHttpServer(options: { host: string; port: number; health: HealthProbe; routes?: Map<string, Route> }): Promise<Server> {
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
    Promise.resolve(route(req, res)).catch(() => {
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new BurnrateError('burnrate_port_in_use', `port ${options.port} on ${options.host} is already in use`, 'Stop the other process or set PORT to a free port.', 1));
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
