import type { BigQueryOptions } from '@google-cloud/bigquery';
import { BurnrateError } from '../../domain/errors.js';

/** Where the Google clients send their requests, and as whom. */
export interface GoogleEndpoint {
  /** e.g. http://127.0.0.1:8085; undefined: each client's default (https://<service>.googleapis.com). */
  url?: URL;
  /**
   * A ready auth client (tests: a pre-issued token); undefined: Application Default Credentials
   * (GOOGLE_APPLICATION_CREDENTIALS, workload identity, gcloud's application-default login).
   */
  authClient?: BigQueryOptions['authClient'];
}

/**
 * BURNRATE_GCP_ENDPOINT points every Google client (BigQuery, Cloud Billing, Budgets) at one other
 * base URL: a private service connect endpoint, an emulator, or a test double. Unset: Google's.
 */
export function googleEndpoint(env: NodeJS.ProcessEnv, authClient?: GoogleEndpoint['authClient']): GoogleEndpoint {
  const auth = authClient ? { authClient } : {};
  const raw = env.BURNRATE_GCP_ENDPOINT;
  if (!raw) return auth;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BurnrateError(
      'burnrate_gcp_endpoint_invalid',
      `BURNRATE_GCP_ENDPOINT is not a URL: "${raw}"`,
      "Set it to a base URL such as https://bigquery.example.internal, or unset it to use Google's endpoints.",
      2,
    );
  }
  return { url, ...auth };
}

/** Options of the generated (gax) clients: HTTP/JSON transport, pointed at the endpoint when one is set. */
export function gaxClientOptions(endpoint: GoogleEndpoint): {
  fallback: true;
  apiEndpoint?: string;
  port?: number;
  protocol?: string;
  authClient?: never;
} {
  // The gax and BigQuery clients each pin their own google-auth-library release: the same client object serves both.
  const auth = endpoint.authClient ? { authClient: endpoint.authClient as never } : {};
  if (!endpoint.url) return { fallback: true, ...auth };
  const { url } = endpoint;
  const protocol = url.protocol.replace(':', '');
  return { fallback: true, apiEndpoint: url.hostname, port: Number(url.port || (protocol === 'https' ? 443 : 80)), protocol, ...auth };
}
