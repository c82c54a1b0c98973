import { describe, expect, it } from 'vitest';
import type { Message } from '../../templates/message.js';
import { renderAdaptiveCard } from '../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../templates/render/block-kit.js';
import { renderHtml } from '../../templates/render/html.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { adaptiveCardProblems, checkSlackLimits, type SlackBlock } from './platform-limits.js';

/** Tags the console's HTML renderer may write; anything else would be markup smuggled in by the data. */
const HTML_TAGS = /<(?!\/?(div|h3|p|strong|dl|dt|dd|table|thead|tbody|tr|th|td|figure|figcaption|span|svg|rect|hr|button|img|a)[\s>])/;

/**
 * Snapshot tests of each message in every dialect, each within its platform's limits. `says`: what
 * the plain text and HTML must always tell the reader (how fresh the data is, say).
 */
export function describeRenderings(messages: Record<string, Message>, says?: { what: string; pattern: RegExp }): void {
  describe.each(Object.entries(messages))('%s', (_name, message) => {
    it('renders to Block Kit within Slack limits', () => {
      const rendered = renderBlockKit(message);
      checkSlackLimits(rendered.blocks as SlackBlock[]);
      expect(rendered).toMatchSnapshot();
    });

    it('renders to a valid Adaptive Card 1.5', () => {
      const card = renderAdaptiveCard(message);
      expect(adaptiveCardProblems(card)).toEqual([]);
      expect(card).toMatchSnapshot();
    });

    it(`renders to plain text${says ? ` that says ${says.what}` : ''}`, () => {
      const text = renderPlainText(message);
      if (says) expect(text).toMatch(says.pattern);
      expect(text).toMatchSnapshot();
    });

    it('renders to HTML for the console, with no raw markup from the data', () => {
      const html = renderHtml(message);
      if (says) expect(html).toMatch(says.pattern);
      expect(html).not.toMatch(HTML_TAGS);
      expect(html).toMatchSnapshot();
    });
  });
}
