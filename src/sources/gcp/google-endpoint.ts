import { BurnrateError } from '../../errors.js';

/** Where the Google clients send their requests: Google's own endpoints, or one given in the environment. */
export interface GoogleEndpoint {
  /** e.g. http://127.0.0.1:8085; undefined: each client's default (https://<service>.googleapis.com). */
  url?: URL;
}

/**
 * BURNRATE_GCP_ENDPOINT points every Google client (BigQuery, Cloud Billing, Budgets) at one other
 * base URL: a private service connect endpoint, an emulator, or a test double. Unset: Google's.
 */
export function googleEndpoint(env: NodeJS.ProcessEnv): GoogleEndpoint {
  const raw = env.BURNRATE_GCP_ENDPOINT;
  if (!raw) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BurnrateError('burnrate_gcp_endpoint_invalid', `BURNRATE_GCP_ENDPOINT is not a URL: "${raw}"`, 'Set it to a base URL such as https://bigquery.example.internal, or unset it to use Google\'s endpoints.', 2);
  }
  return { url };
}

/** Options of the generated (gax) clients: HTTP/JSON transport, pointed at the endpoint when one is set. */
export function gaxClientOptions(endpoint: GoogleEndpoint): { fallback: true; apiEndpoint?: string; port?: number; protocol?: string } {
  if (!endpoint.url) return { fallback: true };
  const { url } = endpoint;
  const protocol = url.protocol.replace(':', '');
  return { fallback: true, apiEndpoint: url.hostname, port: Number(url.port || (protocol === 'https' ? 443 : 80)), protocol };
}
