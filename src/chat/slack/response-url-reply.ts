import type { Reply } from '../interaction.js';
import { ephemeralResponse } from './slack-reply.js';

/**
 * A private answer POSTed straight to Slack's response_url, with no Bolt app at hand: how an answer
 * worker replies. The same request Bolt's `respond()` makes (JSON through fetch), and the same
 * rule: an answer Slack did not accept is an error, for the caller to log.
 */
export function responseUrlReply(responseUrl: string): Reply {
  return {
    async private(message) {
      const response = await fetch(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ephemeralResponse(message)),
      }).catch((error: unknown) => {
        // fetch says only "fetch failed"; the cause (ECONNREFUSED, a connect timeout) is what an operator needs.
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new Error(`response_url could not be reached: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
      });
      // Drain the body so the keep-alive socket can be reused.
      await response.arrayBuffer().catch(() => undefined);
      // The URL itself is a credential of sorts (anyone holding it can post): never in the message.
      if (!response.ok) throw new Error(`response_url answered HTTP ${response.status}`);
    },
  };
}
