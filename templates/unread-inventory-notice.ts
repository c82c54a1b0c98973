import type { UnreadInventory } from '../src/domain/inventory-read.js';
import type { Block, Message } from './message.js';
import { truncate } from './render/plain-text.js';

const MAX_ERROR = 400;

/** The error of an unread inventory as a message says it: cut where a cloud's text runs long (EC2's encoded authorization messages). */
export function unreadError(unread: UnreadInventory): string {
  return truncate(unread.error, MAX_ERROR);
}

/** "GPU inventory ec2 (us-east-1) could not be read": the words of the Not checked line, for a figure that stands for these sources' machines. */
export function unreadSources(unavailable: readonly UnreadInventory[]): string {
  return `GPU inventor${unavailable.length === 1 ? 'y' : 'ies'} ${unavailable.map((u) => u.source).join(', ')} could not be read`;
}

/**
 * The lines every answer built on the GPU inventory (idle, waste, recommend, the review) gives the
 * sources it could not read, in the same words: which one (a short line, what a phone shows), the
 * error under it, then what that answer does without its machines (`meaning`).
 */
export function notCheckedBlocks(unavailable: readonly UnreadInventory[], meaning: string): Block[] {
  if (unavailable.length === 0) return [];
  return [
    ...unavailable.flatMap((u): Block[] => [
      { type: 'text', text: `**Not checked**: ${unreadSources([u])}.` },
      { type: 'context', text: `Last read failed: ${unreadError(u)}` },
    ]),
    { type: 'context', text: meaning },
  ];
}

/**
 * Told to a team once a day while a `gpu.inventory` source cannot be read: what burnrate does
 * without it (its machines are unknown, not gone), and the error to fix.
 */
export function unreadInventoryNotice(teamName: string, unread: UnreadInventory): Message {
  const headline = `${teamName}: GPU inventory ${unread.source} could not be read`;
  return {
    summary: headline,
    blocks: [
      { type: 'header', text: headline },
      // What a phone shows first: the headline and what it means, within 25 words; the rest below the divider.
      { type: 'text', text: 'Its machines go unchecked: their open idle alerts stay as they were.' },
      { type: 'divider' },
      {
        type: 'text',
        text: "Those alerts are neither resolved nor sent again, and new idle machines there are not found. The other inventories' machines are checked as usual.",
      },
      { type: 'text', text: `Last read failed: ${unreadError(unread)}` },
      {
        type: 'context',
        text: 'burnrate asks again at every check. docs/permissions.md lists the permissions each inventory reads with.',
      },
    ],
  };
}
