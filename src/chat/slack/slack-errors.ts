import { WebAPIHTTPError, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError } from '@slack/web-api';
import { DeliveryError } from '../../ports/chat-port.js';
import { redactTokens } from './slack-tokens.js';

/**
 * Slack API errors that no retry can fix: the channel is gone or closed to the bot, the message
 * is invalid, or the token is. Retrying them would only delay the "failed" the operator must see.
 * Everything else (internal_error, ratelimited, unknown new codes) is retried by the outbox up
 * to its attempt limit: we only give up early when Slack itself says it is pointless.
 */
const PERMANENT = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'channel_is_archived',
  'invalid_blocks',
  'invalid_blocks_format',
  'invalid_arguments',
  'invalid_attachments',
  'msg_too_long',
  'no_text',
  'too_many_attachments',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'missing_scope',
  'restricted_action',
  'ekm_access_denied',
  'team_access_not_granted',
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
  'thread_not_found',
]);

/** Turns whatever the WebClient threw into a DeliveryError the outbox knows how to schedule. */
export function toDeliveryError(method: string, error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  if (error instanceof WebAPIRateLimitedError) {
    return new DeliveryError(`Slack ${method}: rate limited, retry after ${error.retryAfter} s`, false, error.retryAfter * 1000);
  }
  if (error instanceof WebAPIPlatformError) {
    const code = String(error.data.error);
    const retryAfter = error.data.response_metadata?.retryAfter;
    return new DeliveryError(
      `Slack ${method}: ${redactTokens(code)}`,
      PERMANENT.has(code),
      code === 'ratelimited' && retryAfter ? retryAfter * 1000 : undefined,
    );
  }
  if (error instanceof WebAPIHTTPError) {
    // A 5xx may come after Slack took the message: the outbox looks for it before posting again.
    return new DeliveryError(
      `Slack ${method}: HTTP ${error.statusCode} ${redactTokens(error.statusMessage)}`.trim(),
      false,
      undefined,
      error.statusCode >= 500,
      error.statusCode >= 500,
    );
  }
  if (error instanceof WebAPIRequestError) {
    const cause = error.original.cause instanceof Error ? error.original.cause : null;
    const detail = cause ? `: ${cause.message}` : '';
    // Refused before anything was sent is certain; a timeout or a reset leaves the post in doubt.
    const refused = [error.original, cause].some((e) => (e as { code?: string } | null)?.code === 'ECONNREFUSED');
    return new DeliveryError(
      `Slack ${method}: network error (${redactTokens(error.original.message + detail)})`,
      false,
      undefined,
      !refused,
      true,
    );
  }
  return new DeliveryError(`Slack ${method}: ${redactTokens(error instanceof Error ? error.message : String(error))}`);
}
