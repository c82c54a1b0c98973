import { describe, expect, it } from 'vitest';
import type { ReviewFigures, TrackedReviewLine } from '../../src/domain/review.js';
import type { Mention, Message } from '../../templates/message.js';
import { DEMO_PEOPLE } from '../../src/providers/demo/demo-people.js';
import { renderAdaptiveCard } from '../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../templates/render/block-kit.js';
import { renderHtml } from '../../templates/render/html.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { reviewChart } from '../../templates/review-chart.js';
import { reviewClose, reviewReminder } from '../../templates/review-followups.js';
import { reviewLine } from '../../templates/review-line.js';
import { reviewSummary } from '../../templates/review-summary.js';
import { rightSize, spot } from '../support/recommendations.js';
import { describeRenderings } from '../support/renderings.js';

/** A 1×1 PNG: the image block's bytes, small enough for a snapshot. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const figures: ReviewFigures = {
  team: 'llm-training',
  teamName: 'LLM <Training> & Co',
  month: '2026-11',
  currency: 'USD',
  spend: 170_269.91,
  budget: 150_000,
  previousMonth: '2026-10',
  previousSpend: 176_852.49,
  change: 170_269.91 / 176_852.49 - 1,
  forecast: { month: '2026-12', amount: 174_285.33, method: 'weekday averages of the last 28 days' },
  idle: { cost: 4_878.49, share: 0.0287, gpuHours: 1_335.2, basis: 'idle: GPUs under the idle policy' },
  untagged: { amount: 17_653.42, share: 0.061 },
  units: {
    experiment: { count: 6, total: 140_961.48, average: 23_493.58, top: { key: 'llm-pretrain', cost: 82_973.6 } },
    run: { count: 65, total: 140_961.6, average: 2_168.64, top: { key: 'llm-pretrain-node-0-run-2595', cost: 10_058.91 } },
    sweep: { count: 0, total: 0, average: 0, top: null },
    perThousandPredictions: { predictions: 240_000_000, cost: 0.1875 },
  },
  showback: {
    team: 'llm-training',
    teamName: 'LLM Training',
    direct: 170_269.91,
    shared: 10_989.26,
    total: 181_259.17,
    share: 0.62,
    budget: 150_000,
  },
  dataThrough: '2026-12-01T00:00:00Z',
};

const line = (rank: number, extra: Partial<TrackedReviewLine> = {}): TrackedReviewLine => ({
  key: `i-0${rank}abcdef`,
  label: `llm-pretrain-node-${rank}`,
  resourceId: `i-0${rank}abcdef`,
  service: 'Amazon Elastic Compute Cloud',
  category: 'Compute',
  pricing: 'Standard',
  cost: 36_546.31 / rank,
  instanceType: 'p5.48xlarge',
  workload: 'training',
  spotSaving: rank === 1 ? 22_606.79 : null,
  recommendations: [],
  id: 100 + rank,
  team: 'llm-training',
  month: '2026-11',
  rank,
  answer: null,
  answeredBy: null,
  answeredAt: null,
  owner: null,
  ownerBy: null,
  ownerAt: null,
  remindedAt: null,
  ...extra,
});
const spotOptions = { dryRun: false, secondApproverAbove: 1000 };
const answered = line(1, {
  recommendations: [rightSize],
  answer: 'spot',
  answeredBy: 'U0DEMOCAROL',
  answeredAt: new Date('2026-12-01T17:00:00Z'),
  owner: 'U0DEMODAN',
  ownerBy: 'U0DEMOCAROL',
  ownerAt: new Date('2026-12-01T17:05:00Z'),
});
const people = ['U0DEMOCAROL', 'U0DEMODAN'];
/** The demo's people by name, as the chat platform's directory would say. */
const person = (id: string): Mention => ({ id, name: DEMO_PEOPLE[id] ?? id, group: false });

const messages: Record<string, Message> = {
  'review summary': reviewSummary(figures, 10),
  'review summary without budget, GPUs or history': reviewSummary(
    {
      ...figures,
      budget: null,
      idle: null,
      change: null,
      previousSpend: 0,
      forecast: null,
      showback: null,
      units: { ...figures.units, perThousandPredictions: null },
    },
    0,
  ),
  'review chart': reviewChart({ teamName: figures.teamName, month: '2026-11', png: PIXEL, team: 'llm-training' }),
  'review line unanswered': reviewLine({ line: line(1), currency: 'USD', people, spot: spotOptions }),
  'review line with a spot recommendation': reviewLine({
    line: line(1, { recommendations: [spot] }),
    currency: 'USD',
    people,
    spot: spotOptions,
  }),
  'review line answered with owner': reviewLine({ line: answered, currency: 'USD', people, person, spot: spotOptions }),
  'review reminder': reviewReminder({
    teamName: figures.teamName,
    month: '2026-11',
    unanswered: [line(2), line(3)],
    people: people.map(person),
  }),
  'review close': reviewClose({
    teamName: figures.teamName,
    month: '2026-11',
    currency: 'USD',
    decisions: [
      { line: answered, saving: 22_606.79 },
      { line: line(2, { answer: 'right-size', answeredBy: 'U0DEMODAN' }), saving: null },
      { line: line(3), saving: 0 },
    ],
    person,
  }),
};

describeRenderings(messages);

describe('review messages', () => {
  it('summary: spend against budget, change, forecast, idle share, untagged, showback and unit costs', () => {
    const text = renderPlainText(messages['review summary']!);
    expect(text).toContain('$170,269.91 of $150,000.00 budget (114%)');
    expect(text).toContain('-3.7% ($176,852.49)');
    expect(text).toContain('Forecast for December 2026:');
    expect(text).toContain('$4,878.49 (3% of spend, 1,335 GPU-hours)');
    expect(text).toContain('$17,653.42 (6%)');
    expect(text).toContain('$10,989.26 share of shared costs');
    expect(text).toMatch(/1,000 predictions\s+240,000,000\s+\$0\.19/);
    expect(text).toContain('billing data through 30 Nov');
  });

  it('line: four answers carrying the line id, the owner picker with the team, the answer marked', () => {
    const actions = messages['review line answered with owner']!.blocks.find((b) => b.type === 'actions');
    expect(actions).toMatchObject({
      buttons: [
        { action: 'review.answer:still-needed', value: '{"line":101,"answer":"still-needed"}' },
        { action: 'review.answer:right-size' },
        { action: 'review.answer:spot', style: 'primary' },
        { action: 'review.answer:not-ours' },
      ],
      select: { action: 'review.owner', initial: '{"line":101,"owner":"U0DEMODAN"}' },
    });
    const text = renderPlainText(messages['review line answered with owner']!);
    expect(text).toContain('Move to spot: answered by Carol Chen at 2026-12-01 17:00 UTC');
    expect(text).toContain('Owner: [Carol Chen] [Dan Novak]');
    expect(text).toContain(
      'Right-size to g4dn.xlarge: dan-notebook used at most 12.5 GiB of its 48 GiB GPU memory (26%) and 8% GPU utilisation on average. Saves about $826.46 a month.',
    );
    expect(messages['review line answered with owner']!.blocks.filter((b) => b.type === 'actions')).toHaveLength(1);
  });

  it('line with a spot recommendation: its evidence and saving, and Approve spot migration apart from the answers', () => {
    const message = messages['review line with a spot recommendation']!;
    const text = renderPlainText(message);
    expect(text).toContain(
      'Spot (p4d.24xlarge on spot): research-train-fra runs training on on-demand p4d.24xlarge and declares checkpointing',
    );
    // One spot figure: the line's (the month's, as the waste report has it), not the recommendation's own estimate.
    expect(text).toContain('On spot this line would have cost about $22,606.79 less this month');
    // Short first: the line's spot context stays within a phone's glance (its basis is /burnrate waste's).
    const spotContext = message.blocks.filter((b) => b.type === 'context' && b.text.includes('On spot'));
    expect(spotContext).toHaveLength(1);
    for (const block of spotContext) expect((block as { text: string }).text.split(/\s+/).length).toBeLessThanOrEqual(40);
    expect(text).not.toContain('$5,545.39');
    // The recommendation's saving replaces the catalog estimate on last month's cost.
    expect(text).not.toContain('catalog spot price');
    const [answers, approve] = message.blocks.filter((b) => b.type === 'actions');
    expect(answers!.buttons.map((b) => b.action)).not.toContain('spot.approve');
    expect(approve).toMatchObject({
      buttons: [{ action: 'spot.approve', label: 'Approve spot migration', value: '{"i":"i-087e2d6c2c7b10912","l":101}' }],
    });
    expect(approve!.buttons[0]!.confirm!.text).toContain('A second, different approver is needed');
  });

  it('escapes what the data says in every dialect', () => {
    const html = Object.values(messages).map(renderHtml).join('');
    expect(html).toContain('LLM &lt;Training&gt; &amp; Co');
    expect(html).not.toContain('<Training>');
  });

  it('chart: an image in HTML and Adaptive Cards, named in plain text and Block Kit', () => {
    const message = messages['review chart']!;
    expect(renderHtml(message)).toContain(`<img src="data:image/png;base64,${PIXEL}"`);
    expect(JSON.stringify(renderAdaptiveCard(message))).toContain(`"url":"data:image/png;base64,${PIXEL}"`);
    expect(renderPlainText(message)).toBe(
      '[chart: LLM <Training> & Co: daily spend by service category, November 2026 (burnrate-llm-training-2026-11.png)]',
    );
    expect(JSON.stringify(renderBlockKit(message).blocks)).toContain('Chart: LLM &lt;Training&gt; &amp; Co');
  });

  it('an image whose bytes are not base64 is dropped, never written into markup', () => {
    const forged: Message = {
      summary: 'x',
      blocks: [{ type: 'image', title: 't', alt: 'a', filename: 'f.png', png: '"><script>alert(1)</script>' }],
    };
    expect(renderHtml(forged)).not.toContain('script');
    expect(JSON.stringify(renderAdaptiveCard(forged))).not.toContain('script');
  });

  it("names the currencies the savings ledger's bill left out for want of a rate, in every dialect", () => {
    const message = reviewSummary(
      { ...figures, savings: { currency: 'USD', realised: 30, expected: 40, actions: 1, missing: ['BRL'] } },
      10,
    );
    const note = 'Charges in BRL are left out: no rate to USD. Add it under fx in burnrate.yml.';
    expect(renderPlainText(message)).toContain(`from 1 action. ${note}`);
    expect(JSON.stringify(renderBlockKit(message).blocks)).toContain(note);
    expect(JSON.stringify(renderAdaptiveCard(message))).toContain(note);
    // A ledger in one currency reads as it did.
    expect(
      renderPlainText(reviewSummary({ ...figures, savings: { currency: 'USD', realised: 30, expected: 40, actions: 1, missing: [] } }, 10)),
    ).not.toContain('left out');
  });

  it('an owner option value over Slack’s 150 characters is a template bug and throws', () => {
    const message = reviewLine({ line: line(1), currency: 'USD', people: ['U'.repeat(140)], spot: spotOptions });
    expect(() => renderBlockKit(message)).toThrow(/option value/);
  });
});
