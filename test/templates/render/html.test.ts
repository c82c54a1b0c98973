/**
 * The console inserts these fragments into a live page, and billing data carries arbitrary tag
 * values: every string must come out as text, never as markup, in content and attributes alike.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../templates/message.js';
import { escapeHtml, renderHtml } from '../../../templates/render/html.js';

const hostile = '<img src=x onerror=alert(1)>';
const quotes = `" onmouseover="alert(1)" x='y'`;

const every: Message = {
  summary: 'everything',
  blocks: [
    { type: 'header', text: `Cost of ${hostile}` },
    { type: 'text', text: `Team **${hostile}** spent & more\nsecond line` },
    { type: 'facts', facts: [{ label: `Owner ${hostile}`, value: `**$1.00** ${quotes}` }] },
    { type: 'table', columns: [{ label: 'Resource' }, { label: 'Cost', align: 'right' }], rows: [[hostile, '$1,234.50'], ['short row']] },
    {
      type: 'chart',
      title: `Top ${hostile}`,
      bars: [
        { label: hostile, value: 30, display: '$30' },
        { label: 'b', value: 60, display: '$60' },
        { label: 'zero', value: 0, display: '$0' },
      ],
    },
    { type: 'divider' },
    {
      type: 'actions',
      buttons: [
        { action: 'budget.ack', label: `Ack **${hostile}**`, value: `{"f":"${hostile}"}`, style: 'primary' },
        {
          action: 'instance.stop',
          label: 'Stop',
          value: quotes,
          style: 'danger',
          confirm: { title: `Stop ${hostile}?`, text: `It ${quotes} stops`, confirm: 'Stop it', deny: 'Keep' },
        },
      ],
    },
    { type: 'context', text: `billing data through 1 Dec · ${hostile}` },
  ],
};

/** Parses a fragment the way a browser would not let it run: every tag name, and every attribute name. */
function tagsOf(html: string): string[] {
  return [...html.matchAll(/<([a-z0-9]+)/gi)].map((m) => m[1]!.toLowerCase());
}

function attributeNames(html: string): string[] {
  return [...html.matchAll(/\s([a-z-]+)=(?:"[^"]*"|'[^']*')/gi)].map((m) => m[1]!.toLowerCase());
}

describe('HTML renderer', () => {
  const html = renderHtml(every);

  it('escapes &, <, >, " and \'', () => {
    expect(escapeHtml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
  });

  it('never lets a hostile tag value become markup, in text or in attributes', () => {
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(
      tagsOf(html).filter(
        (t) =>
          ![
            'div',
            'h3',
            'p',
            'strong',
            'dl',
            'dt',
            'dd',
            'table',
            'thead',
            'tbody',
            'tr',
            'th',
            'td',
            'figure',
            'figcaption',
            'span',
            'svg',
            'rect',
            'hr',
            'button',
          ].includes(t),
      ),
    ).toEqual([]);
    // Only attributes the renderer writes itself: a value with quotes cannot open a new one.
    const allowed = [
      'class',
      'scope',
      'viewbox',
      'preserveaspectratio',
      'aria-hidden',
      'x',
      'y',
      'width',
      'height',
      'type',
      'data-action',
      'data-value',
      'data-label',
    ];
    expect(attributeNames(html).filter((a) => !allowed.includes(a) && !a.startsWith('data-confirm-'))).toEqual([]);
    // With <, > and " escaped in text and values, every <...> is a real tag and every "..." a
    // whole value: outside the values, no tag has an event handler.
    const tags = (html.match(/<[^>]*>/g) ?? []).map((tag) => tag.replace(/"[^"]*"/g, '""'));
    expect(tags.filter((tag) => /\son[a-z]+=/i.test(tag))).toEqual([]);
  });

  it('renders every block type', () => {
    expect(html).toContain('<h3 class="b-header">Cost of &lt;img');
    expect(html).toContain('<p class="b-text">Team <strong>&lt;img src=x onerror=alert(1)&gt;</strong> spent &amp; more\nsecond line</p>');
    expect(html).toContain(
      '<dt>Owner &lt;img src=x onerror=alert(1)&gt;</dt><dd><strong>$1.00</strong> &quot; onmouseover=&quot;alert(1)&quot; x=&#39;y&#39;</dd>',
    );
    expect(html).toContain('<hr class="b-divider">');
    expect(html).toContain('<p class="b-context">billing data through 1 Dec · &lt;img');
  });

  it('right-aligns money columns and gives short rows their blank cells', () => {
    expect(html).toContain('<th scope="col" class="num">Cost</th>');
    expect(html).toContain('<td class="num" data-label="Cost">$1,234.50</td>');
    expect(html).toContain('<tr><td data-label="Resource">short row</td><td class="num" data-label="Cost"></td></tr>');
  });

  it('draws chart bars as SVG widths relative to the largest value, with no inline style', () => {
    expect([...html.matchAll(/<rect x="0" y="0" width="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([50, 100, 0]);
    expect(html).toContain('<span class="bar-value">$60</span>');
    expect(html).not.toContain('style=');
  });

  it('puts action and value in data attributes, and the confirm dialog in data-confirm-*', () => {
    expect(html).toContain(
      '<button type="button" class="btn btn-primary" data-action="budget.ack" data-value="{&quot;f&quot;:&quot;&lt;img src=x onerror=alert(1)&gt;&quot;}">Ack &lt;img src=x onerror=alert(1)&gt;</button>',
    );
    const stop = /<button[^>]*data-action="instance.stop"[^>]*>/.exec(html)?.[0] ?? '';
    expect(stop).toContain('class="btn btn-danger"');
    expect(stop).toContain('data-confirm-title="Stop &lt;img src=x onerror=alert(1)&gt;?"');
    expect(stop).toContain('data-confirm-text="It &quot; onmouseover=&quot;alert(1)&quot; x=&#39;y&#39; stops"');
    expect(stop).toContain('data-confirm-ok="Stop it"');
    expect(stop).toContain('data-confirm-deny="Keep"');
    expect(html.match(/data-confirm-title/g)).toHaveLength(1);
  });

  it('drops control and bidi-override characters that could disguise text', () => {
    expect(renderHtml({ summary: '', blocks: [{ type: 'text', text: 'evil\u202Egnp.exe\u0007' }] })).toBe(
      '<div class="msg-content"><p class="b-text">evilgnp.exe</p></div>',
    );
  });

  it('shows the summary of a message without renderable blocks', () => {
    expect(renderHtml({ summary: `Nothing <here>`, blocks: [{ type: 'text', text: '  ' }] })).toBe(
      '<div class="msg-content"><p class="b-text">Nothing &lt;here&gt;</p></div>',
    );
  });
});
