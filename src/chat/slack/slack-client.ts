import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from 'pino';
import { CHAT_CALL_TIMEOUT_MS } from '../../domain/chat-call.js';
import { slackLogger } from './slack-logger.js';
import type { SlackSettings } from './slack-settings.js';

/**
 * Options for every WebClient burnrate creates (its own and Bolt's). The client's built-in retries
 * are off and rate-limited calls are rejected rather than slept on: the outbox owns retries, so a
 * throttle becomes a scheduled attempt in SQLite (which survives a restart) instead of a request
 * held open in memory for minutes. A timeout bounds how long one call can stall a delivery run.
 */
export function slackClientOptions(settings: SlackSettings, log: Logger): WebClientOptions {
  return {
    ...(settings.apiUrl ? { slackApiUrl: settings.apiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: CHAT_CALL_TIMEOUT_MS,
    logger: slackLogger(log),
  };
}

export function createSlackClient(settings: SlackSettings, log: Logger): WebClient {
  return new WebClient(settings.botToken, slackClientOptions(settings, log));
}
