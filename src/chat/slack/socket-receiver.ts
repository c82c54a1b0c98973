import { SocketModeReceiver } from '@slack/bolt';
import type { FetchFunction } from '@slack/web-api';
import type { Logger } from 'pino';
import { slackLogger } from './slack-logger.js';
import type { SlackSettings } from './slack-settings.js';

export interface SocketConnection {
  receiver: SocketModeReceiver;
  /** Resolves with Slack's error code when apps.connections.open refuses the app-level token. */
  refused: Promise<string>;
}

/**
 * apps.connections.open answers that no retry can change: the token is wrong, revoked, of the
 * wrong kind or lacks connections:write. The socket client gives up by itself on only a few of
 * them (invalid_auth, not_authed, ...) and retries the rest forever, so `serve` would hang at
 * start without a word; `refused` lets start() fail with the code instead.
 */
const REFUSALS = new Set([
  'not_authed',
  'invalid_auth',
  'not_allowed_token_type',
  'missing_scope',
  'token_revoked',
  'token_expired',
  'account_inactive',
  'no_permission',
  'access_denied',
  'team_disabled',
  'user_removed_from_team',
  'ekm_access_denied',
]);

/**
 * Socket Mode: burnrate opens a WebSocket to Slack (apps.connections.open with the app-level
 * token) instead of receiving HTTP requests, so it needs no public URL.
 *
 * Built here rather than by Bolt's `socketMode: true`, which hands the socket client the same
 * WebClient options as every other call. Those are tuned for answering a person (two quick
 * retries), and the socket client treats a failed apps.connections.open during a reconnect as
 * fatal: a Slack outage of a few seconds at reconnect time would end the process with an
 * unhandled rejection. The socket client gets retries that never give up (at most 30 s apart, so
 * it is back soon after Slack is); it only borrows the API base URL (SLACK_API_URL), the timeout
 * and our logger.
 */
export function createSocketReceiver(settings: SlackSettings & { appToken: string }, log: Logger): SocketConnection {
  let refuse: (code: string) => void = () => {};
  const refused = new Promise<string>((resolve) => (refuse = resolve));
  const receiver = new SocketModeReceiver({
    appToken: settings.appToken,
    logger: slackLogger(log),
    // Into Bolt's context, so the redelivery guard can recognise an envelope Slack sends again.
    customPropertiesExtractor: (event: { envelope_id?: unknown }) => ({ envelopeId: event.envelope_id }),
    installerOptions: {
      clientOptions: {
        ...(settings.apiUrl ? { slackApiUrl: settings.apiUrl } : {}),
        timeout: 15_000,
        retryConfig: { forever: true, factor: 1.3, maxTimeout: 30_000 },
        fetch: watchRefusals(refuse),
      },
    },
  });
  // Slack recycles every connection every few hours; say so, so a gap in the logs has a reason.
  receiver.client.on('reconnecting', () => log.info('slack: Socket Mode connection closed, reconnecting'));
  receiver.client.on('connected', () => log.info('slack: Socket Mode connected'));
  return { receiver, refused };
}

/** The global fetch, reading a copy of each apps.connections.open answer for a refusal. */
function watchRefusals(refuse: (code: string) => void): FetchFunction {
  return async (url, init) => {
    const response = await fetch(url, init as RequestInit);
    if (String(url).endsWith('/apps.connections.open') && response.status === 200) {
      const answer = (await response
        .clone()
        .json()
        .catch(() => null)) as { ok?: boolean; error?: string } | null;
      if (answer?.ok === false && REFUSALS.has(String(answer.error))) refuse(String(answer.error));
    }
    return response;
  };
}
