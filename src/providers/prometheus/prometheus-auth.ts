/**
 * How the requests to one Prometheus prove who sends them: a bearer token (from the environment
 * or a file that rotates) or an AWS SigV4 signature. Each request asks for its headers afresh, so
 * a rotated token or refreshed AWS credentials are picked up without a restart.
 */
export interface PrometheusAuth {
  /** The headers that authorise one GET of `url` (a signer may re-encode its query into the form it signs); never logged. */
  headers(url: URL): Promise<Record<string, string>>;
  /** What to check when Prometheus answers 401 or 403. */
  readonly refusedHint: string;
}

/** A token read once from the environment at start (bearer-tokens.ts). */
export function staticBearerToken(token: string): PrometheusAuth {
  return {
    headers: async () => ({ authorization: `Bearer ${token}` }),
    refusedHint:
      'Check that the bearer token is current and allowed to query this Prometheus, and that any proxy in front of it passes the Authorization header on.',
  };
}
