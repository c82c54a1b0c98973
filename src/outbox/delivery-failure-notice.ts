import type { Config } from '../config/schema.js';
import { targetOf, type ChatPort } from '../ports/chat-port.js';
import type { OutboxDraft, OutboxItem } from '../store/outbox-records.js';
import { deliveryFailedNotice } from '../../templates/delivery-failed-notice.js';

const NOTICE_KEY = 'notice:delivery-failed:';

/**
 * The direct messages that tell burnrate's admins an alert failed for good: one per admin and
 * platform that can reach them directly. The people of the channel it was meant for cannot see
 * it (the channel is gone, the bot is not in it); an admin can fix that and send it again. A
 * notice that fails itself is not noticed again.
 */
export function deliveryFailureNotices(
  deps: { config: Pick<Config, 'admins'>; chat: readonly ChatPort[] },
  item: OutboxItem,
  error: string,
): OutboxDraft[] {
  if (item.dedupeKey.startsWith(NOTICE_KEY)) return [];
  const message = deliveryFailedNotice({ id: item.id, target: item.target, summary: item.message.summary, error });
  return deps.chat.flatMap((port) =>
    deps.config.admins.flatMap((admin) => {
      const address = port.addressOfUser?.(admin) ?? null;
      return address ? [{ dedupeKey: `${NOTICE_KEY}${item.id}:${targetOf(port, address)}`, target: targetOf(port, address), message }] : [];
    }),
  );
}
