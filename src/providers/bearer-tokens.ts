import type { GpuMetricsSourceConfig } from '../config/gpu-sources-schema.js';
import { metricsSourceId } from '../config/metrics-source-id.js';
import { BurnrateError } from '../domain/errors.js';

/**
 * The Prometheus bearer tokens, by metrics source id, from the environment variables the config
 * names. Read at start, so that a missing one stops burnrate before anything runs, naming the
 * variable (never a value).
 */
export function readBearerTokens(metrics: readonly GpuMetricsSourceConfig[], env: NodeJS.ProcessEnv): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const source of metrics) {
    if (source.type !== 'prometheus' || !source.bearerTokenEnv) continue;
    const id = metricsSourceId(source);
    const token = env[source.bearerTokenEnv]?.trim();
    if (!token)
      throw new BurnrateError(
        'burnrate_prometheus_token_missing',
        `The GPU metrics source "${id}" reads its bearer token from ${source.bearerTokenEnv}, which is not set.`,
        `Set ${source.bearerTokenEnv} in burnrate's environment, or remove bearerTokenEnv if this Prometheus needs no token.`,
      );
    tokens.set(id, token);
  }
  return tokens;
}
