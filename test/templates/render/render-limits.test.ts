/**
 * Renders sample messages (one deliberately oversized) and checks the output against the limits
 * the receiving platforms enforce: Slack's Block Kit limits, and the adaptivecards library's own
 * parser and validator for Adaptive Cards 1.5.
 */
import { describe, it, expect } from 'vitest';
import type { Message } from '../../../templates/message.js';
import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../../templates/render/block-kit.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import { adaptiveCardProblems, checkSlackLimits, SLACK, type SlackBlock } from '../../support/platform-limits.js';

const longParagraph = (words: number) =>
  Array.from({ length: words }, (_, i) => (i % 40 === 39 ? `word${i}.\n` : `word${i} & <b>`)).join(' ');

const budgetAlert: Message = {
  summary: 'Budget alert: ml-research is at **92%** of its monthly budget',
  blocks: [
    { type: 'header', text: 'Budget alert: ml-research' },
    { type: 'text', text: 'Spend is at **92%** of the monthly budget, 9 days before month end.' },
    {
      type: 'facts',
      facts: [
        { label: 'Spent', value: '$18,400' },
        { label: 'Budget', value: '$20,000' },
        { label: 'Forecast', value: '**$26,100**' },
      ],
    },
    {
      type: 'chart',
      title: 'Top services',
      bars: [
        { label: 'EC2 (p4d)', value: 12000, display: '$12,000' },
        { label: 'S3', value: 2400, display: '$2,400' },
        { label: 'Idle', value: 0, display: '$0' },
      ],
    },
    { type: 'divider' },
    {
      type: 'actions',
      buttons: [
        { action: 'budget.ack', label: 'Acknowledge', value: 'alert-1', style: 'primary' },
        { action: 'budget.snooze', label: 'Snooze 24h', value: 'alert-1' },
      ],
    },
    { type: 'context', text: 'Source: AWS Cost Explorer, refreshed 10 min ago' },
  ],
};

const idleGpu: Message = {
  summary: '3 idle GPU nodes',
  blocks: [
    { type: 'header', text: '3 idle GPU nodes' },
    {
      type: 'table',
      columns: [{ label: 'Node' }, { label: 'GPU util', align: 'right' }, { label: 'Cost/day', align: 'right' }],
      rows: [['gpu-a100-01', '0%', '$780'], ['gpu-a100-02', '2%', '$780'], ['gpu-h100-07']],
    },
    {
      type: 'actions',
      buttons: [
        {
          action: 'gpu.stop',
          label: 'Stop all',
          value: 'gpu-a100-01,gpu-a100-02,gpu-h100-07',
          style: 'danger',
          confirm: { title: 'Stop 3 nodes?', text: 'Running jobs on them will be **killed**.', confirm: 'Stop', deny: 'Cancel' },
        },
      ],
    },
  ],
};

/** Oversized on every axis: Slack must split, cut and drop to stay valid. */
const big: Message = {
  summary: 'Monthly cost review '.repeat(20),
  blocks: [
    { type: 'header', text: 'H'.repeat(200) },
    { type: 'text', text: longParagraph(900) },
    { type: 'text', text: `**${'bold '.repeat(700)}**` },
    { type: 'text', text: 'x'.repeat(7000) },
    { type: 'text', text: '&'.repeat(4000) },
    {
      type: 'facts',
      facts: Array.from({ length: 15 }, (_, i) => ({ label: `Fact ${i} <label>`, value: i === 3 ? 'v&'.repeat(1500) : `$${i * 100}` })),
    },
    {
      type: 'table',
      columns: [{ label: 'Project' }, { label: 'Owner' }, { label: 'Spend', align: 'right' }, { label: 'Δ %', align: 'right' }],
      rows: Array.from({ length: 80 }, (_, i) => [
        `project-${i}-${'long-name-'.repeat(i % 7)}`,
        `team-${i % 9} <ops>`,
        `$${(i * 137.5).toFixed(2)}`,
        `${i % 13}%`,
      ]),
    },
    {
      type: 'chart',
      title: 'Spend by team',
      bars: Array.from({ length: 30 }, (_, i) => ({ label: `team-${i}`, value: i * i, display: `$${i * i}` })),
    },
    { type: 'divider' },
    {
      type: 'actions',
      buttons: Array.from({ length: 30 }, (_, i) => ({
        action: `review.action-${i}`,
        label: `A very long button label number ${i} that goes on and on well past Slack's seventy-five character limit`,
        value: 'v'.repeat(2000),
        ...(i % 3 === 0 ? { style: 'danger' as const } : {}),
        ...(i % 2 === 0
          ? {
              confirm: {
                title: 'T'.repeat(150),
                text: 'Really & truly? '.repeat(40),
                confirm: 'Yes, do it right now please',
                deny: 'No, leave everything as it is',
              },
            }
          : {}),
      })),
    },
    ...Array.from({ length: 40 }, (_, i) => ({ type: 'context' as const, text: `footnote ${i}` })),
  ],
};

const samples: Record<string, Message> = { budgetAlert, idleGpu, big, empty: { summary: 'nothing', blocks: [] } };

describe('Slack Block Kit limits', () => {
  for (const [name, msg] of Object.entries(samples)) {
    it(`${name} stays within Slack's limits`, () => {
      const { text, blocks } = renderBlockKit(msg);
      expect(text.length).toBeGreaterThan(0);
      checkSlackLimits(blocks as SlackBlock[]);
    });
  }

  it('splits, cuts and caps the oversized message instead of dropping content silently', () => {
    const blocks = renderBlockKit(big).blocks as SlackBlock[];
    expect(blocks).toHaveLength(SLACK.blocks);
    expect(blocks[0]?.text?.text).toBe(`${'H'.repeat(149)}…`);
    // The overflow note replaces the tail, counting what it hides.
    const last = blocks.at(-1);
    expect(last?.type).toBe('context');
    expect(String(last?.elements?.[0]?.text)).toMatch(/^… \d+ more blocks not shown$/);
    // 15 facts need two sections of fields.
    const fieldSections = blocks.filter((block) => block.fields);
    expect(fieldSections.map((block) => block.fields?.length)).toEqual([10, 5]);
    // The 80-row table is one Slack table block: its header row and every row.
    const tables = blocks.filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]?.rows?.map((row) => row[0]?.text)).toEqual([
      'Project',
      ...Array.from({ length: 80 }, (_, i) => expect.stringMatching(new RegExp(`^project-${i}\\b`))),
    ]);
    // No section ends inside an entity, and bold spans are still paired after splitting.
    for (const block of blocks) {
      const sectionText = block.text?.text ?? '';
      expect(sectionText).not.toMatch(/&[a-z]{0,3}$/);
      expect(sectionText.replace(/```[\s\S]*?```/g, '').split('*').length % 2).toBe(1);
    }
  });

  it('shows a second table (Slack takes one table block per message) as code blocks, keeping every row and right-aligning numbers', () => {
    const table = big.blocks.find((block) => block.type === 'table')!;
    const [native, ...sections] = renderBlockKit({ summary: 't', blocks: [table, table] }).blocks as SlackBlock[];
    expect(native?.type).toBe('table');
    expect(sections.length).toBeGreaterThan(1);
    for (const section of sections) expect(section.text?.text).toMatch(/^```\nProject .*\n─+/);
    const rows = sections.flatMap((section) => (section.text?.text ?? '').split('\n').filter((line) => line.startsWith('project-')));
    expect(rows).toHaveLength(80);
    expect(rows[1]).toMatch(/ \$137\.50 {3}1%$/);
  });

  it("keeps a table over Slack's 100 rows as code blocks rather than cutting rows", () => {
    const rows = Array.from({ length: 120 }, (_, i) => [`row-${i}`, `$${i}`]);
    const blocks = renderBlockKit({
      summary: 't',
      blocks: [{ type: 'table', columns: [{ label: 'Name' }, { label: 'Cost', align: 'right' }], rows }],
    }).blocks as SlackBlock[];
    expect(blocks.some((block) => block.type === 'table')).toBe(false);
    expect(blocks.flatMap((block) => (block.text?.text ?? '').split('\n').filter((line) => line.startsWith('row-')))).toHaveLength(120);
  });

  it('splits long text at line breaks and keeps all words', () => {
    const text = longParagraph(900);
    const sections = renderBlockKit({ summary: 's', blocks: [{ type: 'text', text }] }).blocks as SlackBlock[];
    expect(sections.length).toBeGreaterThan(1);
    const words = sections.flatMap((section) => (section.text?.text ?? '').split(/\s+/));
    expect(words.filter((word) => /^word\d+/.test(word))).toHaveLength(900);
    // Every split but the last ends at a paragraph end.
    for (const section of sections.slice(0, -1)) expect(section.text?.text).toMatch(/\.$/);
  });

  it('throws on identifiers that would be cut or ambiguous', () => {
    const withButton = (action: string, value: string, action2?: string): Message => ({
      summary: 's',
      blocks: [{ type: 'actions', buttons: [{ action, label: 'A', value }, ...(action2 ? [{ action: action2, label: 'B', value }] : [])] }],
    });
    expect(() => renderBlockKit(withButton('a'.repeat(256), 'v'))).toThrow(/action_id/);
    expect(() => renderBlockKit(withButton('ok', 'v'.repeat(2001)))).toThrow(/value/);
    expect(() => renderBlockKit(withButton('same', 'v', 'same'))).toThrow(/Duplicate action id/);
    expect(() => renderBlockKit(withButton('a'.repeat(255), 'v'.repeat(2000)))).not.toThrow();
  });
});

describe('Adaptive Card 1.5 validity', () => {
  for (const [name, msg] of Object.entries(samples)) {
    it(`${name} parses and validates without events`, () => {
      const card = renderAdaptiveCard(msg);
      expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.5', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json' });
      const problems = adaptiveCardProblems(card);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }

  it('the validator does catch mistakes (so a clean result means something)', () => {
    const bad = {
      type: 'AdaptiveCard',
      version: '1.5',
      body: [
        { type: 'TextBlock', text: 'x', size: 'Huge' },
        { type: 'Chart.Pie' },
        { type: 'ActionSet', actions: Array.from({ length: 6 }, (_, i) => ({ type: 'Action.Execute', title: `${i}`, verb: 'v' })) },
      ],
    };
    const problems = adaptiveCardProblems(bad);
    expect(problems.some((problem) => problem.includes('"Huge"'))).toBe(true);
    expect(problems.some((problem) => problem.includes('Chart.Pie'))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('validate:'))).toBe(true);
  });

  it('maps blocks to the expected elements', () => {
    const card = renderAdaptiveCard(idleGpu) as { body: Array<Record<string, any>>; fallbackText: string; speak: string };
    expect(card.fallbackText).toBe('3 idle GPU nodes');
    expect(card.speak).toBe('3 idle GPU nodes');
    const table = card.body.find((element) => element.type === 'Table');
    expect(table?.firstRowAsHeader).toBe(true);
    const alignments = table?.columns.map((column: Record<string, unknown>) => column.horizontalCellContentAlignment);
    expect(alignments).toEqual([undefined, 'Right', 'Right']);
    // The short row still has three cells.
    expect(table?.rows.at(-1).cells).toHaveLength(3);
    const stop = card.body.find((element) => element.type === 'ActionSet')?.actions[0];
    expect(stop).toMatchObject({ type: 'Action.ShowCard', title: 'Stop all', style: 'destructive' });
    expect(stop.card.actions[0]).toMatchObject({
      type: 'Action.Execute',
      title: 'Stop',
      verb: 'gpu.stop',
      data: { value: 'gpu-a100-01,gpu-a100-02,gpu-h100-07' },
      style: 'destructive',
    });
  });

  it('turns a divider into a separator on the next element', () => {
    const card = renderAdaptiveCard(budgetAlert) as { body: Array<Record<string, unknown>> };
    const actionSet = card.body.find((element) => element.type === 'ActionSet');
    expect(actionSet?.separator).toBe(true);
    expect(card.body.filter((element) => element.separator)).toHaveLength(1);
  });

  it('caps long tables so the card stays under the Teams message size limit (~28 KB)', () => {
    const table = big.blocks.find((block) => block.type === 'table')!;
    const card = renderAdaptiveCard({ summary: 't', blocks: [table] }) as { body: Array<Record<string, any>> };
    expect(card.body[0]?.rows).toHaveLength(51);
    expect(card.body[1]).toMatchObject({ type: 'TextBlock', text: '… 30 more rows not shown' });
    expect(JSON.stringify(card).length).toBeLessThan(28 * 1024);
  });
});

describe('plain text', () => {
  it('renders every block type readably', () => {
    const text = renderPlainText(budgetAlert);
    expect(text).toContain('Budget alert: ml-research\n═════════════════════════');
    expect(text).toContain('Spent:    $18,400\nBudget:   $20,000\nForecast: $26,100');
    expect(text).toMatch(/EC2 \(p4d\) {2}█{20} {2}\$12,000/);
    expect(text).toMatch(/Idle {7}\s{20} {2}\$0/);
    expect(text).toContain('─'.repeat(40));
    expect(text).toContain('Actions: [Acknowledge] [Snooze 24h]');
    expect(text).not.toContain('**');
  });

  it('aligns table columns, numbers to the right', () => {
    const lines = renderPlainText(idleGpu).split('\n');
    expect(lines).toContain('Node         GPU util  Cost/day');
    expect(lines).toContain('gpu-a100-02        2%      $780');
    expect(lines).toContain('gpu-h100-07');
  });

  it('falls back to the summary when there are no blocks', () => {
    expect(renderPlainText({ summary: '**All** quiet', blocks: [] })).toBe('All quiet');
  });
});
