import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitProblems, viewProblems } from './fake-slack-api-block-kit.js';
import { FakeSlackApi } from './fake-slack-api.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });

/** A message using most of what Block Kit offers, each field as Slack's reference writes it. */
const VALID = [
  { type: 'header', block_id: 'h', text: { type: 'plain_text', text: 'Budget alert', emoji: true } },
  {
    type: 'section',
    text: { type: 'mrkdwn', text: '*LLM Training* is at 92%', verbatim: false },
    accessory: {
      type: 'button',
      text: plain('Open'),
      action_id: 'open',
      url: 'https://example.com/',
      accessibility_label: 'Open the budget',
    },
    expand: true,
  },
  { type: 'section', fields: [mrkdwn('*Spent*\n$9,200'), plain('Budget $10,000')] },
  { type: 'divider' },
  {
    type: 'context',
    elements: [mrkdwn('Data through 21 Nov'), { type: 'image', image_url: 'https://example.com/a.png', alt_text: 'logo' }],
  },
  {
    type: 'actions',
    block_id: 'a',
    elements: [
      {
        type: 'button',
        text: plain('Stop'),
        action_id: 'instance.stop',
        value: 'i-0abc',
        style: 'danger',
        confirm: { title: plain('Stop it?'), text: mrkdwn('It *stops*.'), confirm: plain('Stop'), deny: plain('Keep'), style: 'danger' },
      },
      {
        type: 'static_select',
        action_id: 'snooze',
        placeholder: plain('Snooze for'),
        options: [
          { text: plain('1 day'), value: '1' },
          { text: plain('1 week'), value: '7', description: plain('until next Monday') },
        ],
        initial_option: { text: plain('1 day'), value: '1' },
      },
      { type: 'overflow', action_id: 'more', options: [{ text: plain('Docs'), value: 'docs', url: 'https://example.com/docs' }] },
    ],
  },
  {
    type: 'table',
    column_settings: [{ is_wrapped: true }, { align: 'right' }],
    rows: [
      [
        { type: 'raw_text', text: 'Team' },
        { type: 'raw_text', text: 'Spend' },
      ],
      [
        { type: 'raw_text', text: 'llm-training' },
        { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: '$9,200' }] }] },
      ],
    ],
  },
  { type: 'markdown', text: '**Bold** and a [link](https://example.com)' },
];

describe('the fake Slack checks blocks against Block Kit', () => {
  it('accepts a message built from the reference', () => {
    expect(blockKitProblems(VALID)).toEqual([]);
  });

  it.each([
    [
      'a misspelt block type',
      { type: 'sectoin', text: mrkdwn('x') },
      'blocks[0] (sectoin): unsupported block type "sectoin" (did you mean "section"?)',
    ],
    [
      'an unknown block field',
      { type: 'section', text: mrkdwn('x'), txt: 'x' },
      'blocks[0] (section): section has unknown field "txt" (did you mean "text"?)',
    ],
    ['a block without its required field', { type: 'header' }, 'blocks[0] (header): header needs text'],
    [
      'mrkdwn where only plain_text goes',
      { type: 'header', text: mrkdwn('x') },
      'blocks[0] (header): header text must be plain_text, got mrkdwn',
    ],
    [
      'emoji on mrkdwn',
      { type: 'section', text: { type: 'mrkdwn', text: 'x', emoji: true } },
      'blocks[0] (section): text: mrkdwn has unknown field "emoji"',
    ],
    ['an empty section text', { type: 'section', text: mrkdwn('') }, 'blocks[0] (section): section text must be 1-3000 characters'],
    [
      '11 fields',
      { type: 'section', fields: Array.from({ length: 11 }, () => mrkdwn('f')) },
      'blocks[0] (section): section fields must have 1-10 items, got 11',
    ],
    [
      'a misspelt element type',
      { type: 'actions', elements: [{ type: 'buton', text: plain('x'), action_id: 'a' }] },
      'blocks[0] (actions): actions elements[0]: unsupported element type "buton" (did you mean "button"?)',
    ],
    [
      'an element where this block takes none of its kind',
      { type: 'actions', elements: [{ type: 'plain_text_input', action_id: 'a' }] },
      'blocks[0] (actions): actions elements[0]: unsupported element type "plain_text_input"',
    ],
    [
      'a button style Slack does not have',
      { type: 'actions', elements: [{ type: 'button', text: plain('x'), action_id: 'a', style: 'warning' }] },
      'blocks[0] (actions): elements[0] (button): button style must be one of primary, danger, got "warning"',
    ],
    [
      'a 76-character button text',
      { type: 'actions', elements: [{ type: 'button', text: plain('x'.repeat(76)), action_id: 'a' }] },
      'blocks[0] (actions): elements[0] (button): button text must be 1-75 characters',
    ],
    [
      'a confirm dialog without deny',
      {
        type: 'actions',
        elements: [
          { type: 'button', text: plain('x'), action_id: 'a', confirm: { title: plain('t'), text: plain('t'), confirm: plain('y') } },
        ],
      },
      'blocks[0] (actions): elements[0] (button).confirm: confirm needs deny',
    ],
    [
      'an initial option that is not an option',
      {
        type: 'actions',
        elements: [
          {
            type: 'static_select',
            action_id: 's',
            options: [{ text: plain('a'), value: 'a' }],
            initial_option: { text: plain('b'), value: 'b' },
          },
        ],
      },
      'blocks[0] (actions): elements[0] (static_select): static_select initial option "b" is not one of its options',
    ],
    [
      'a table cell of another type',
      { type: 'table', rows: [[{ type: 'text', text: 'x' }]] },
      'blocks[0] (table): table rows[0][0]: unsupported element type "text"',
    ],
    [
      'a column alignment Slack does not have',
      { type: 'table', rows: [[{ type: 'raw_text', text: 'x' }]], column_settings: [{ align: 'middle' }] },
      'blocks[0] (table): column_settings[0]: column_setting align must be one of left, center, right, got "middle"',
    ],
  ])('refuses %s', (_what, block, problem) => {
    expect(blockKitProblems([block])).toEqual([problem]);
  });

  it('counts blocks per surface: 50 in a message, 100 in a modal or App Home', () => {
    const dividers = (n: number) => Array.from({ length: n }, () => ({ type: 'divider' }));
    expect(blockKitProblems(dividers(50))).toEqual([]);
    expect(blockKitProblems(dividers(51))).toEqual(['51 blocks, max 50']);
    expect(viewProblems({ type: 'home', blocks: dividers(100) })).toEqual([]);
    expect(viewProblems({ type: 'home', blocks: dividers(101) })).toEqual(['101 blocks, max 100']);
  });

  it('checks a view: its type, its fields, and submit when it asks for input', () => {
    const input = { type: 'input', label: plain('Monthly'), element: { type: 'plain_text_input', action_id: 'm' } };
    expect(viewProblems({ type: 'modal', title: plain('Edit'), submit: plain('Save'), blocks: [input] })).toEqual([]);
    expect(viewProblems({ type: 'modal', title: plain('Edit'), blocks: [input] })).toEqual([
      'view: a modal with input blocks needs submit',
    ]);
    expect(viewProblems({ type: 'modl', blocks: [] })).toEqual(['view: unsupported view type "modl" (did you mean "modal"?)']);
    expect(viewProblems({ type: 'home', blocks: [], title: plain('x') })).toEqual(['view: home has unknown field "title"']);
  });

  describe('over HTTP, as the real WebClient meets it', () => {
    let fake: FakeSlackApi;
    let client: WebClient;
    beforeAll(async () => {
      fake = await FakeSlackApi.start({ expect: ['chat.postMessage', 'views.publish'] });
      client = new WebClient('xoxb-test', { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    });
    afterAll(() => fake.close());

    it("answers invalid_blocks with Slack's errors and response_metadata, and posts nothing", async () => {
      const error = await client.chat
        .postMessage({ channel: 'C1', text: 'x', blocks: [{ type: 'sectoin', text: mrkdwn('x') } as never] })
        .then(
          () => null,
          (e: { data?: Record<string, any> }) => e.data,
        );
      expect(error).toMatchObject({
        ok: false,
        error: 'invalid_blocks',
        errors: ['blocks[0] (sectoin): unsupported block type "sectoin" (did you mean "section"?)'],
        response_metadata: { messages: ['[ERROR] blocks[0] (sectoin): unsupported block type "sectoin" (did you mean "section"?)'] },
      });
      expect(fake.messages).toEqual([]);
    });

    it('posts a valid message', async () => {
      await expect(client.chat.postMessage({ channel: 'C1', text: 'x', blocks: VALID as never })).resolves.toMatchObject({ ok: true });
      expect(fake.messages).toHaveLength(1);
    });

    it('answers invalid_arguments for a view with an unknown field', async () => {
      const error = await client.views
        .publish({ user_id: 'U1', view: { type: 'home', blocks: [{ type: 'divider', text: plain('x') }] as never } })
        .then(
          () => null,
          (e: { data?: Record<string, any> }) => e.data,
        );
      expect(error).toMatchObject({
        ok: false,
        error: 'invalid_arguments',
        errors: ['blocks[0] (divider): divider has unknown field "text"'],
      });
    });
  });
});
