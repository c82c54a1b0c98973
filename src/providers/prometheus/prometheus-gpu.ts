import { metricsSourceId } from '../../config/metrics-source-id.js';
import type { ProviderGpu } from '../provider.js';
import { RollingWindowMetrics } from '../rolling-window-metrics.js';
import { PrometheusGpuSource } from './prometheus-source.js';
import { bearerTokenFile } from './bearer-token-file.js';
import { sigv4Auth } from './sigv4-auth.js';
import { googleCredentialsAuth } from './google-credentials-auth.js';
import { readCaFile } from './read-ca-file.js';
import { fetchTrustingCa } from './fetch-trusting-ca.js';

/**
 * DCGM and node_exporter metrics from Prometheus. A token from the environment comes read already
 * (bearer-tokens.ts); a token file is read per request as it rotates; sigv4 signs for Amazon
 * Managed Service for Prometheus; google sends Google access tokens to Google Cloud's.
 */
export function prometheusGpu(tokens: ReadonlyMap<string, string>): ProviderGpu {
  return {
    metrics: (source) => {
      if (source.type !== 'prometheus') throw new Error(`not a Prometheus source: ${source.type}`);
      const id = metricsSourceId(source);
      const auth = source.bearerTokenFile
        ? bearerTokenFile(source.bearerTokenFile)
        : source.sigv4
          ? sigv4Auth({ region: source.sigv4.region })
          : source.google
            ? googleCredentialsAuth(source.url)
            : undefined;
      const ca = source.ca ?? (source.caFile ? readCaFile(source.caFile) : undefined);
      return new RollingWindowMetrics(
        new PrometheusGpuSource({
          id,
          url: source.url,
          bearerToken: tokens.get(id),
          auth,
          fetch: ca ? fetchTrustingCa(ca) : undefined,
          timeoutMs: source.timeoutSeconds * 1000,
        }),
      );
    },
  };
}
