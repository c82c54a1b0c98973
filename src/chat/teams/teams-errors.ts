import { DeliveryError } from '../../ports/chat-port.js';
import { BotSignInError } from './connector-auth.js';

/** Connector answers no retry can fix: the bot was removed, the conversation is gone, the card is invalid, credentials are wrong. */
const PERMANENT_STATUS = new Set([400, 401, 403, 404, 413]);

/**
 * Turns what the connector client threw into a DeliveryError the outbox knows how to schedule: the
 * SDK's HttpError (`status`, the response's headers), or fetch's own failure (its `cause` names
 * the network error).
 */
export function toDeliveryError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  // No token, no request: nothing can have been posted. Retried, since Entra or the host's identity endpoint may come back.
  if (error instanceof BotSignInError) return new DeliveryError(`Teams: ${oneLine(error.message)}`);
  const e = error as {
    status?: unknown;
    message?: unknown;
    code?: unknown;
    cause?: { code?: unknown };
    response?: { headers?: { get?: (name: string) => string | null | undefined } };
  };
  const status = typeof e.status === 'number' ? e.status : null;
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (status === 429) {
    const retryAfterMs = retryAfter(e.response?.headers?.get?.('retry-after') ?? undefined);
    return new DeliveryError(`Teams: throttled (429)${retryAfterMs ? `, retry after ${retryAfterMs / 1000} s` : ''}`, false, retryAfterMs);
  }
  // A 5xx, a timeout or a reset may come after the connector took the activity: the post is in doubt.
  if (status !== null)
    return new DeliveryError(`Teams: HTTP ${status} ${oneLine(message)}`.trim(), PERMANENT_STATUS.has(status), undefined, status >= 500);
  // Refused: the request never reached the connector, so nothing was posted.
  const code = e.code ?? e.cause?.code;
  return new DeliveryError(`Teams: ${oneLine(message)}`, false, undefined, code !== 'ECONNREFUSED');
}

/** Retry-After is seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfter(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 300);
}
