import type { Block, Message } from '../../templates/message.js';

/**
 * The words a reader meets before an alert's buttons, counted as they read them: a moment or a
 * person (a `⟦…⟧` token) is one word, `**` marks none. `lead` is what comes before the first item
 * (or before the buttons of a one-item alert); `items` are each divider-separated item's words up
 * to its buttons. Buttons and links are not counted: they are what the reader acts with.
 */
export function firstSectionWords(message: Message): { lead: number; items: number[] } {
  const parts: Block[][] = [[]];
  for (const block of message.blocks) {
    if (block.type === 'divider') parts.push([]);
    else parts.at(-1)!.push(block);
  }
  const [lead, ...items] = parts.map(untilButtons).map((blocks) => blocks.reduce((sum, block) => sum + wordsOf(block), 0));
  return { lead: lead!, items };
}

function untilButtons(blocks: Block[]): Block[] {
  const at = blocks.findIndex((b) => b.type === 'actions');
  return at < 0 ? blocks : blocks.slice(0, at);
}

function wordsOf(block: Block): number {
  const text =
    block.type === 'header' || block.type === 'text' || block.type === 'context'
      ? block.text
      : block.type === 'facts'
        ? block.facts.map((f) => `${f.label} ${f.value}`).join(' ')
        : block.type === 'mentions'
          ? `${block.lead} ${block.people.map(() => 'person').join(' ')}`
          : block.type === 'table'
            ? [...block.columns.map((c) => c.label), ...block.rows.flat()].join(' ')
            : '';
  return text
    .replace(/⟦[^⟧]*⟧/g, 'x')
    .replace(/\*\*/g, '')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}$€£¥]/u.test(word)).length;
}
