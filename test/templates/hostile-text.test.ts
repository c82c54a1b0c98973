/**
 * Hostile text from billing data and chat (bidi overrides, NUL and other controls, Slack
 * broadcasts and links, markdown links and emphasis) in every field of every template kind,
 * through every renderer: none of the hostile code points survive, nothing becomes a live link,
 * ping or emphasis, and ordinary text (accents, CJK, emoji) comes through unchanged.
 */
import { describe, expect, it } from 'vitest';
import { renderAdaptiveCard } from '../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../templates/render/block-kit.js';
import { renderHtml } from '../../templates/render/html.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { escapeCardMarkdown, stripHostile } from '../../templates/render/sanitise.js';
import { adaptiveCardProblems, checkSlackLimits, type SlackBlock } from '../support/platform-limits.js';
import { HOSTILE_MESSAGES, MARKDOWN_LINK, ORDINARY } from './hostile-messages.js';

// Written out here rather than taken from sanitise.ts, so a code point dropped there fails here.
const HOSTILE_CODE_POINTS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

type Json = unknown;

/** Every string under `node` with the key it sits under, skipping keys that hold identifiers rather than text. */
function strings(
  node: Json,
  skip: ReadonlySet<string>,
  key = '',
  parent: Record<string, unknown> | null = null,
): { key: string; text: string; parent: Record<string, unknown> | null }[] {
  if (typeof node === 'string') return [{ key, text: node, parent }];
  if (Array.isArray(node)) return node.flatMap((item) => strings(item, skip, key, parent));
  if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    return Object.entries(record).flatMap(([k, v]) => (skip.has(k) ? [] : strings(v, skip, k, record)));
  }
  return [];
}

/** Markdown as a CommonMark reader sees it once backslash escapes are taken out. */
const unescapedMarkup = (text: string) => text.replace(/\\[!-/:-@[-`{-~]/g, '');
/** What Teams shows: escapes resolved to their characters. */
const shown = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe.each(Object.entries(HOSTILE_MESSAGES))('%s with hostile data', (_name, message) => {
  it('Block Kit: no hostile code points; no raw <, > or & in mrkdwn, so no ping or link', () => {
    const rendered = renderBlockKit(message);
    checkSlackLimits(rendered.blocks as SlackBlock[]);
    const texts = strings(rendered, new Set(['action_id', 'value', 'block_id']));
    for (const { text } of texts) expect(text).not.toMatch(HOSTILE_CODE_POINTS);
    const mrkdwn = [rendered.text, ...texts.filter((t) => t.key === 'text' && t.parent?.type === 'mrkdwn').map((t) => t.text)];
    // The only pings are the mentions burnrate means (an id of Slack's shape), and its date tokens; never the data's.
    const mentions = /<@[A-Z0-9]+>|<!subteam\^[A-Z0-9]+>|<!date\^\d+\^\{date_short_pretty\} at \{time\}\|\d{4}-\d\d-\d\d \d\d:\d\d UTC>/g;
    for (const text of mrkdwn) expect(text.replace(mentions, '')).not.toMatch(/[<>]|&(?!(amp|lt|gt);)/);
    // Raw < and > only where Slack shows text as is: plain_text (headers, buttons, options), raw_text (table cells).
    for (const t of texts.filter((x) => /[<>]/.test(x.text.replace(mentions, ''))))
      expect(['plain_text', 'raw_text']).toContain(t.parent?.type);
    expect(texts.some((t) => t.text.includes(ORDINARY))).toBe(true);
  });

  it('Adaptive Card: no hostile code points; markdown text forms no link and no emphasis, and reads as the data', () => {
    const card = renderAdaptiveCard(message);
    expect(adaptiveCardProblems(card)).toEqual([]);
    const texts = strings(card, new Set(['verb', 'data', 'url', '$schema']));
    for (const { text } of texts) expect(text).not.toMatch(HOSTILE_CODE_POINTS);
    // TextBlock text and fact titles and values are markdown in Teams.
    const markdown = texts
      .filter(
        (t) =>
          (t.key === 'text' && t.parent?.type === 'TextBlock') ||
          ((t.key === 'title' || t.key === 'value') && !('type' in (t.parent ?? {}))),
      )
      .map((t) => t.text);
    expect(markdown.length).toBeGreaterThan(0);
    for (const text of markdown) {
      const markup = unescapedMarkup(text);
      expect(markup).not.toMatch(/\]\s*[([]/);
      expect(markup).not.toMatch(/\*em\*|_em_/);
      // Even a reader that ignored backslash escapes would find no `](`.
      expect(text).not.toContain('](');
    }
    const visible = markdown.map(shown).join('\n');
    expect(visible).toContain(ORDINARY);
    if (JSON.stringify(message).includes(MARKDOWN_LINK)) expect(visible).toContain(MARKDOWN_LINK);
  });

  it('HTML: no hostile code points and no markup from the data', () => {
    const html = renderHtml(message).replace(/data-(value|action)="[^"]*"/g, '');
    expect(html).not.toMatch(HOSTILE_CODE_POINTS);
    expect(html).not.toMatch(
      /<(?!\/?(div|h3|p|strong|dl|dt|dd|table|thead|tbody|tr|th|td|figure|figcaption|span|svg|rect|hr|button|img|a)[\s>])/,
    );
    // The only links are the link buttons burnrate draws (an https URL, opened in a new tab), never the data's.
    expect(html.replace(/<a class="btn btn-link" href="https:\/\/[^"]+" target="_blank" rel="noopener noreferrer">/g, '')).not.toContain(
      '<a',
    );
    expect(html).toContain(ORDINARY);
  });

  it('plain text: no hostile code points, the data otherwise literal', () => {
    const text = renderPlainText(message);
    expect(text).not.toMatch(HOSTILE_CODE_POINTS);
    expect(text).toContain(ORDINARY);
  });
});

describe('the sanitiser itself', () => {
  it('removes each hostile code point and keeps tab, newline, zero-width joiners and right-to-left letters', () => {
    const hostile = [
      '\u0000',
      '\u0007',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u009f',
      '\u061c',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ];
    for (const char of hostile) expect(stripHostile(`a${char}b`)).toBe('ab');
    expect(stripHostile('a\r\nb\rc\td')).toBe('a\nb\nc\td');
    expect(stripHostile('👩‍💻 שלום café 東京')).toBe('👩‍💻 שלום café 東京');
  });

  it('escapes Teams markdown so it reads back as the same characters', () => {
    for (const text of ['[a](http://x)', 'a*b*c', '_x_', 'C:\\data', 'back\\*slash', '[x][ref]', 'plain ünïcode 東京']) {
      expect(shown(escapeCardMarkdown(text))).toBe(text);
      expect(unescapedMarkup(escapeCardMarkdown(text))).not.toMatch(/[*_[\]]/);
    }
  });
});

describe('link buttons', () => {
  it('keep an https link and drop one that is not http(s), on every surface', () => {
    const message = HOSTILE_MESSAGES['idle alert']!;
    const rendered = [
      JSON.stringify(renderBlockKit(message)),
      JSON.stringify(renderAdaptiveCard(message)),
      renderHtml(message),
      renderPlainText(message),
    ];
    for (const text of rendered) {
      expect(text).not.toContain('javascript:');
      expect(text).toContain('https://us-east-1.console.aws.amazon.com/ec2/home?region=us-east-1#InstanceDetails:instanceId=i-1');
    }
  });
});
