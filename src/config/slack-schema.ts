import { z } from 'zod';

/**
 * How Slack lets burnrate read a channel back (conversations.history and .replies, used to tell
 * whether a post whose answer was lost went out): `marketplace` for an app listed on the Slack
 * Marketplace or installed only in its own workspace (up to 200 messages a page, 50 calls a
 * minute); `limited`, the default, for a distributed app outside the Marketplace, which Slack
 * answers with at most 15 messages a page and one call a minute, cutting pages short silently.
 */
export const slackSchema = z.strictObject({
  historyLimit: z
    .enum(['marketplace', 'limited'], {
      error: 'expected marketplace (a Marketplace or single-workspace app) or limited (any other distributed app)',
    })
    .default('limited'),
});

export type SlackConfig = z.output<typeof slackSchema>;
