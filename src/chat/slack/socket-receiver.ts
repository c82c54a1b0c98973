import { SocketModeReceiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { slackLogger } from './slack-logger.js';
import type { SlackSettings } from './slack-settings.js';

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
 * and our logger. A refused token is not retried: Slack's answer is final and start() fails.
 */
export function createSocketReceiver(settings: SlackSettings & { appToken: string }, log: Logger): SocketModeReceiver {
  const logger = slackLogger(log);
  const receiver = new SocketModeReceiver({
    appToken: settings.appToken,
    logger,
    installerOptions: {
      clientOptions: { ...(settings.apiUrl ? { slackApiUrl: settings.apiUrl } : {}), timeout: 15_000, retryConfig: { forever: true, factor: 1.3, maxTimeout: 30_000 } },
    },
  });
  // Slack recycles every connection every few hours; say so, so a gap in the logs has a reason.
  receiver.client.on('reconnecting', () => log.info('slack: Socket Mode connection closed, reconnecting'));
  receiver.client.on('connected', () => log.info('slack: Socket Mode connected'));
  return receiver;
}
