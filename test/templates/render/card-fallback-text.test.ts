/**
 * An Adaptive Card's `fallbackText` and `speak` are plain text, but notification previews and some
 * clients format them as markdown: a `[label](url)` from billing data (a team, resource or service
 * name) must not arrive there as a live link hiding its target.
 */
import { describe, expect, it } from 'vitest';
import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';
import { neutraliseLinks } from '../../../templates/render/sanitise.js';
import { HOSTILE_MESSAGES, MARKDOWN_LINK } from '../hostile-messages.js';

/** Link syntax a CommonMark reader would follow: inline, reference, or an autolink. */
const LINK_SYNTAX = /\]\(|\]\[|<https?:/i;

describe('Adaptive Card fallback and speech text from hostile billing data', () => {
  const cards = Object.entries(HOSTILE_MESSAGES).map(([name, message]) => ({
    name,
    summary: message.summary,
    card: renderAdaptiveCard(message) as { fallbackText: string; speak: string },
  }));

  it('carries no link syntax, and shows where the data pointed as plain text', () => {
    // The fault is injected: the summaries do carry the markdown link from the data.
    const linked = cards.filter((c) => c.summary.includes(MARKDOWN_LINK));
    expect(linked.length).toBeGreaterThan(0);
    for (const { name, card } of cards) {
      for (const text of [card.fallbackText, card.speak]) expect(text, name).not.toMatch(LINK_SYNTAX);
    }
    for (const { card } of linked) {
      expect(card.fallbackText).toContain('click (https://evil.example/x)');
      expect(card.speak).toBe(card.fallbackText);
    }
  });

  it.each([
    ['[pay here](https://evil.example/pay)', 'pay here (https://evil.example/pay)'],
    ['![img](https://evil.example/i.png)', 'img (https://evil.example/i.png)'],
    ['[pay][1]', 'pay (1)'],
    ['[a [nested]](https://evil.example)', '[a [nested]] (https://evil.example)'],
    ['<https://evil.example/x>', 'https://evil.example/x'],
    ['ML Research [prod] (GPU) at 82%', 'ML Research [prod] (GPU) at 82%'],
  ])('%s reads as %s', (input, expected) => {
    const out = neutraliseLinks(input);
    expect(out).not.toMatch(LINK_SYNTAX);
    expect(out).toBe(expected);
  });
});
