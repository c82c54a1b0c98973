import { BurnrateError } from '../../domain/errors.js';
import type { PrometheusAuth } from './prometheus-auth.js';

/** The read-only scope Google Cloud Managed Service for Prometheus' query API accepts. */
export const MONITORING_READ_SCOPE = 'https://www.googleapis.com/auth/monitoring.read';

interface AccessTokens {
  getAccessToken(): Promise<string | null | undefined>;
}

/**
 * Google Cloud Managed Service for Prometheus through its Prometheus-compatible API: each request
 * carries an access token from Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS,
 * workload identity on GKE, the metadata server). google-auth-library caches the token and
 * refreshes it before it expires; it is loaded on the first query, not when the provider is read.
 * `url` is the source's, https://monitoring.googleapis.com/v1/projects/PROJECT_ID/location/global/prometheus.
 */
export function googleCredentialsAuth(url: string): PrometheusAuth {
  // The project is the url's: given, the library need not look it up (metadata server, gcloud) before the first token.
  const projectId = /\/v1\/projects\/([^/]+)\//.exec(new URL(url).pathname)?.[1];
  let tokens: Promise<AccessTokens> | undefined;
  return {
    async headers() {
      tokens ??= import('google-auth-library').then(
        ({ GoogleAuth }) => new GoogleAuth({ scopes: [MONITORING_READ_SCOPE], ...(projectId ? { projectId } : {}) }),
      );
      let token: string | null | undefined;
      try {
        token = await (await tokens).getAccessToken();
      } catch (error) {
        throw missingCredentials(error instanceof Error ? error.message : String(error));
      }
      if (!token) throw missingCredentials('no access token was issued');
      return { authorization: `Bearer ${token}` };
    },
    refusedHint:
      "Check that burnrate's Google credentials (workload identity's service account, or the key in GOOGLE_APPLICATION_CREDENTIALS) hold roles/monitoring.viewer (monitoring.timeSeries.list) on the project in the url.",
  };
}

function missingCredentials(reason: string): BurnrateError {
  return new BurnrateError(
    'burnrate_prometheus_google_credentials_missing',
    // The library's reasons name files and endpoints, never a token; one line of it is enough.
    `No Google access token to query Managed Service for Prometheus (${reason.split('\n')[0]!.slice(0, 300)}).`,
    'Give burnrate Application Default Credentials: workload identity on GKE, GOOGLE_APPLICATION_CREDENTIALS naming a service account key file, or the metadata server of a Compute Engine VM.',
    1,
  );
}
