import { createHash, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { BurnrateError, isBurnrateError } from '../domain/errors.js';
import { json, startHttpServer, type HealthProbe, type Route } from './server.js';

/** Prometheus' registered default for exporters of this kind; any free port may be set instead. */
export const DEFAULT_METRICS_PORT = 9464;

export interface MetricsSettings {
  host: string;
  port: number;
  /** Set by METRICS_PORT: a port that is taken then stops serve; the default's only turns metrics off. */
  portChosen: boolean;
  /** Required as `Authorization: Bearer <token>` when set. */
  token: string | null;
}

/**
 * /metrics on a listener of its own (METRICS_HOST, loopback by default; METRICS_PORT), never on
 * the one Slack's events and Teams' activities reach, which in HTTP mode is the internet. Its
 * probes answer there too, for a cluster that checks them on the same port.
 */
export async function startMetricsListener(
  settings: MetricsSettings,
  metrics: Route,
  health: HealthProbe,
  log: Pick<Logger, 'error' | 'warn'>,
): Promise<Server | null> {
  const route: Route = settings.token === null ? metrics : requireBearer(settings.token, metrics);
  try {
    return await startHttpServer({ host: settings.host, port: settings.port, health, log, routes: new Map([['GET /metrics', route]]) });
  } catch (error) {
    if (!isBurnrateError(error) || error.code !== 'burnrate_port_in_use') throw error;
    if (settings.portChosen)
      throw new BurnrateError(
        'burnrate_port_in_use',
        `METRICS_PORT ${settings.port} on ${settings.host} is already in use`,
        'Stop the other process or set METRICS_PORT to a free port (not PORT: metrics have a listener of their own).',
        1,
      );
    // Two burnrates on one laptop: the second runs without metrics rather than not at all.
    log.warn({ port: settings.port }, 'metrics port already in use: /metrics is off (set METRICS_PORT to serve it)');
    return null;
  }
}

/** Answers 401 unless the request carries the token; compared in constant time. */
function requireBearer(token: string, route: Route): Route {
  const expected = digest(token);
  return (req, res) => {
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      res.setHeader('www-authenticate', 'Bearer realm="burnrate metrics"');
      return json(res, 401, { error: 'METRICS_TOKEN required as a bearer token' });
    }
    return route(req, res);
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
