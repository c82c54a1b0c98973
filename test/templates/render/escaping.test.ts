/**
 * Untrusted text (resource names, tags, user labels) must display literally on every surface:
 * Slack needs &, < and > as entities (or `<!channel>` would ping a whole channel), plain text must
 * not let control characters rewrite a terminal, and Adaptive Cards take text as is apart from the
 * markdown characters that could form emphasis or links (hostile-text.test.ts covers those).
 */
import { describe, it, expect } from 'vitest';
import type { Message } from '../../../templates/message.js';
import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../../templates/render/block-kit.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';

const nasty = '<script>alert(1)</script> & a > b **bold <i>** <!channel> &amp;';
const nastyMrkdwn = '&lt;script&gt;alert(1)&lt;/script&gt; &amp; a &gt; b *bold &lt;i&gt;* &lt;!channel&gt; &amp;amp;';

const msg: Message = {
  summary: nasty,
  blocks: [
    { type: 'header', text: 'Cost <review> & more' },
    { type: 'text', text: nasty },
    { type: 'facts', facts: [{ label: 'Owner <ops>', value: nasty }] },
    { type: 'table', columns: [{ label: 'Name<>' }, { label: 'Cost', align: 'right' }], rows: [['a&b <c>', '$1']] },
    { type: 'chart', title: 'R&D <top>', bars: [{ label: 'x<y', value: 1, display: '>$1' }] },
    { type: 'actions', buttons: [{ action: 'cost.ack', label: 'Ack <now> & **go**', value: 'id=1&x=<2>' }] },
    { type: 'context', text: nasty },
  ],
};

type Json = Record<string, any>;

describe('Slack escaping', () => {
  const { text, blocks } = renderBlockKit(msg) as { text: string; blocks: Json[] };

  it('escapes &, < and > in mrkdwn and turns **bold** into *bold*', () => {
    expect(text).toBe(nastyMrkdwn);
    expect(blocks[1]?.text.text).toBe(nastyMrkdwn);
    expect(blocks[2]?.fields[0].text).toBe(`*Owner &lt;ops&gt;*\n${nastyMrkdwn}`);
    expect(blocks.at(-1)?.elements[0].text).toBe(nastyMrkdwn);
  });

  it('escapes inside code blocks too, and leaves table cells (raw_text) literal', () => {
    expect(blocks[3]?.rows[1][0]).toEqual({ type: 'raw_text', text: 'a&b <c>' });
    const second = renderBlockKit({ summary: 's', blocks: [msg.blocks[3]!, msg.blocks[3]!] }).blocks as Json[];
    expect(second[1]?.text.text).toContain('a&amp;b &lt;c&gt;');
    expect(blocks[4]?.text.text).toMatch(/^\*R&amp;D &lt;top&gt;\*\n```\nx&lt;y  █+  &gt;\$1\n```$/);
  });

  it('leaves plain_text literal (Slack shows it as is) and drops the bold markup there', () => {
    expect(blocks[0]?.text).toEqual({ type: 'plain_text', text: 'Cost <review> & more', emoji: true });
    const button = blocks[5]?.elements[0];
    expect(button.text.text).toBe('Ack <now> & go');
    // The value is an opaque payload handed back on click, not display text.
    expect(button.value).toBe('id=1&x=<2>');
  });

  it('never leaves a raw <, > or & outside an entity in any mrkdwn text', () => {
    const mrkdwnTexts = JSON.stringify(blocks).match(/"type":"mrkdwn","text":"(?:[^"\\]|\\.)*"/g) ?? [];
    expect(mrkdwnTexts.length).toBeGreaterThan(0);
    for (const raw of mrkdwnTexts) {
      const value = JSON.parse(`{${raw}}`).text as string;
      expect(value).not.toMatch(/[<>]|&(?!(amp|lt|gt);)/);
    }
  });

  it('does not cut an entity in half when truncating', () => {
    const long = renderBlockKit({ summary: 's', blocks: [{ type: 'context', text: '&'.repeat(4000) }] }).blocks as Json[];
    const contextText = long[0]?.elements[0].text as string;
    expect(contextText.length).toBeLessThanOrEqual(3000);
    expect(contextText).toMatch(/^(&amp;)+…$/);
  });
});

describe('plain text safety', () => {
  it('keeps markup-looking text literal and strips **bold** markers', () => {
    const text = renderPlainText(msg);
    expect(text).toContain('<script>alert(1)</script> & a > b bold <i> <!channel> &amp;');
    expect(text).toContain('Cost <review> & more');
    expect(text).toContain('[Ack <now> & go]');
    expect(text).not.toContain('**');
  });

  it('removes control characters that could rewrite a terminal or forge log lines', () => {
    const text = renderPlainText({
      summary: 's',
      blocks: [
        { type: 'text', text: 'red\u001b[31m alert\rfake line\u0007 \u202edesrever' },
        { type: 'facts', facts: [{ label: 'Node\u001b[2J', value: 'ok\r\nsecond' }] },
      ],
    });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(text).toContain('red[31m alert\nfake line desrever');
    expect(text).toContain('Node[2J: ok\n         second');
  });
});

describe('Adaptive Card text', () => {
  const card = renderAdaptiveCard(msg) as Json;
  const body = card.body as Json[];

  it('keeps text literal: no HTML entities, **bold** left for the TextBlock markdown', () => {
    expect(body[0]).toMatchObject({ type: 'TextBlock', text: 'Cost <review> & more', size: 'Large', weight: 'Bolder' });
    expect(body[1]).toMatchObject({ type: 'TextBlock', text: nasty, wrap: true });
    expect(body[2]?.facts).toEqual([{ title: 'Owner <ops>', value: nasty }]);
    expect(body[3]?.rows[1].cells[0].items[0].text).toBe('a&b <c>');
    expect(body.at(-1)).toMatchObject({ type: 'TextBlock', text: nasty, size: 'Small', isSubtle: true });
  });

  it('uses unformatted text where Teams shows no markdown', () => {
    expect(card.fallbackText).toBe('<script>alert(1)</script> & a > b bold <i> <!channel> &amp;');
    expect(card.speak).toBe(card.fallbackText);
    expect(body[5]?.actions[0]).toEqual({
      type: 'Action.Execute',
      title: 'Ack <now> & go',
      verb: 'cost.ack',
      data: { value: 'id=1&x=<2>' },
    });
  });
});
