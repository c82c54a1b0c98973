import { describe, expect, it } from 'vitest';
import { timeOf, type Message } from '../../../templates/message.js';
import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../../templates/render/block-kit.js';
import { renderHtml } from '../../../templates/render/html.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';

const at = new Date('2026-11-20T09:05:00Z');
const message: Message = {
  summary: `Kept until ${timeOf(at)}`,
  blocks: [
    { type: 'header', text: `Kept until ${timeOf(at)}` },
    { type: 'context', text: `Kept **running** until ${timeOf(at)} <b>` },
  ],
};

describe('moments in text', () => {
  it("are Slack date tokens where Slack reads mrkdwn (each reader's own time zone), with the UTC time as fallback", () => {
    const { text, blocks } = renderBlockKit(message) as {
      text: string;
      blocks: { text?: { text: string }; elements?: { text: string }[] }[];
    };
    const epoch = at.getTime() / 1000;
    expect(blocks[1]?.elements?.[0]?.text).toBe(
      `Kept *running* until <!date^${epoch}^{date_short_pretty} at {time}|2026-11-20 09:05 UTC> &lt;b&gt;`,
    );
    // A header is plain text and a notification shows no tokens: there, the UTC time.
    expect(blocks[0]?.text?.text).toBe('Kept until 2026-11-20 09:05 UTC');
    expect(text).toBe('Kept until 2026-11-20 09:05 UTC');
  });

  it('read as the UTC time, labelled, elsewhere for a message of no team', () => {
    for (const rendered of [renderPlainText(message), renderHtml(message), JSON.stringify(renderAdaptiveCard(message))]) {
      expect(rendered).toContain('2026-11-20 09:05 UTC');
      expect(rendered).not.toContain('⟦');
    }
  });

  it("read on the clock of the message's team, labelled with its zone, outside Slack", () => {
    const cases: [string, string][] = [
      ['Europe/Berlin', '2026-11-20 10:05 CET'],
      ['America/New_York', '2026-11-20 04:05 EST'],
      ['Asia/Kolkata', '2026-11-20 14:35 GMT+5:30'],
      ['UTC', '2026-11-20 09:05 UTC'],
    ];
    for (const [timeZone, shown] of cases) {
      const zoned = { ...message, timeZone };
      for (const rendered of [renderPlainText(zoned), renderHtml(zoned), JSON.stringify(renderAdaptiveCard(zoned))])
        expect(rendered).toContain(shown);
      // Slack still shows each reader's own zone; its fallback stays UTC.
      expect(JSON.stringify(renderBlockKit(zoned))).toContain('|2026-11-20 09:05 UTC>');
    }
  });
});
