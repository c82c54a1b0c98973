/**
 * Slack Block Kit renderer: turns a Message into the `text` + `blocks` of chat.postMessage.
 *
 * Slack rejects a whole message (`invalid_blocks`) when any one limit is exceeded, so every
 * user-visible string is cut to fit here rather than trusting templates. Identifiers (action ids,
 * button values) are never cut: a cut id would dispatch the wrong action, so they throw instead.
 */
import { isLinkUrl, mapBold, mapPeople, mapTimes, pingableOn, stripMarkup, type Mention } from '../message.js';
import { utcMinute } from '../../src/domain/utc-minute.js';
import type { ActionsBlock, Button, ChartBlock, FactsBlock, MentionsBlock, Message, Select, TableBlock } from '../message.js';
import { layoutBars, layoutTable, oneLine, truncate } from './plain-text.js';
import { escapeMrkdwn, sanitiseMessage } from './sanitise.js';
import { SLACK_PLOT, slackPlot } from './slack-plot.js';

export { escapeMrkdwn };

/** Slack's documented limits (https://docs.slack.dev/reference/block-kit). */
const LIMIT = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  actionId: 255,
  buttonValue: 2000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  selectOptions: 100,
  optionText: 75,
  optionValue: 150,
  placeholder: 150,
  tableRows: 100,
  tableCells: 20,
  cellText: 2000,
} as const;

/** Fact labels are short by nature; capping them leaves the value most of a field's room. */
const MAX_FACT_LABEL = 200;
/** Table cells wider than this are cut, so one long name cannot push the other columns off screen. */
const MAX_CELL_WIDTH = 40;
/** A code line longer than this wraps into an unreadable mess anyway; the cap also bounds section size. */
const MAX_CODE_LINE = 700;
/** Chart titles are one line; the cap keeps a title plus the first code lines inside one section. */
const MAX_TITLE = 200;

type SlackBlock = Record<string, unknown>;

/** Neutral markup to mrkdwn: **bold** becomes *bold*, everything else as inlineMrkdwn draws it. */
function mrkdwn(text: string): string {
  return mapBold(text, inlineMrkdwn, (bold) => `*${bold}*`);
}

/** Text without bold markup to mrkdwn: a moment a date token, a person a mention, everything else escaped. */
function inlineMrkdwn(text: string): string {
  return mapPeople(text, (rest) => mapTimes(rest, escapeMrkdwn, slackDate), slackPerson);
}

/**
 * Slack's mention (`<@U…>`, a group `<!subteam^S…>`), which Slack shows as their name and pings.
 * Only a Slack id of Slack's shape becomes a mention; anyone else is an escaped name.
 */
function slackPerson(person: Mention): string {
  if (!pingableOn(person, 'slack') || !/^[A-Z0-9]{2,40}$/.test(person.id)) return escapeMrkdwn(oneLine(person.name));
  return person.group ? `<!subteam^${person.id}>` : `<@${person.id}>`;
}

/**
 * Slack's date token: each reader sees the moment in their own time zone ("Nov 20th at 10:00 AM"),
 * clients that cannot draw it the fallback after the bar, in UTC.
 */
function slackDate(date: Date): string {
  return `<!date^${Math.floor(date.getTime() / 1000)}^{date_short_pretty} at {time}|${utcMinute(date)}>`;
}

/**
 * Text inside a ``` code block: still escaped (Slack decodes entities there too), and backticks
 * swapped for a look-alike so a cell containing ``` cannot close the block early.
 */
function codeLine(text: string): string {
  return escapeMrkdwn(text).replace(/`/g, 'ˋ');
}

function plainText(text: string, max: number): { type: 'plain_text'; text: string; emoji: true } {
  // plain_text is shown as is: no escaping, and no bold since it has no formatting.
  return { type: 'plain_text', text: truncate(stripMarkup(text), max), emoji: true };
}

/**
 * Renders `source` and, if the result is longer than `max`, renders the longest truncated source
 * that fits. Truncating the source, not the output, never leaves half an entity (`&am`). A cut
 * through a **bold** span shows its opening asterisks literally; rare enough to accept.
 */
function fit(source: string, render: (text: string) => string, max: number): string {
  const whole = render(source);
  if (whole.length <= max) return whole;
  let lo = 0;
  let hi = source.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(truncate(source, mid)).length <= max) lo = mid;
    else hi = mid - 1;
  }
  return render(truncate(source, lo));
}

/**
 * Cuts one word that is longer than `max` once rendered into pieces that fit. `render` is
 * `escapeMrkdwn`, optionally wrapped in bold asterisks, which cost a fixed `overhead`.
 */
function splitWord(word: string, render: (text: string) => string, max: number): string[] {
  const overhead = render('').length;
  const pieces: string[] = [];
  let piece = '';
  let length = overhead;
  for (const char of word) {
    const cost = escapeMrkdwn(char).length;
    if (length + cost > max && piece) {
      pieces.push(render(piece));
      piece = '';
      length = overhead;
    }
    piece += char;
    length += cost;
  }
  if (piece) pieces.push(render(piece));
  return pieces;
}

/**
 * Rendered mrkdwn pieces that must not be cut apart: whitespace runs, escaped words and whole bold
 * spans (a bold span longer than a section is bolded word by word instead).
 */
function mrkdwnUnits(source: string, max: number): string[] {
  const units: string[] = [];
  for (const part of source.split(/(\*\*[^*]+\*\*)/g)) {
    const isBold = /^\*\*[^*]+\*\*$/.test(part);
    const inner = isBold ? part.slice(2, -2) : part;
    const render = isBold ? (text: string) => `*${inlineMrkdwn(text)}*` : inlineMrkdwn;
    if (isBold && render(inner).length <= max) {
      units.push(render(inner));
      continue;
    }
    for (const word of inner.split(/(\s+)/)) {
      if (!word) continue;
      if (/^\s+$/.test(word)) units.push(word);
      else units.push(...splitWord(word, render, max));
    }
  }
  return units;
}

/**
 * Splits text into mrkdwn chunks of at most `max` characters, preferring a line break in the
 * second half of a chunk so paragraphs stay whole, else a space.
 */
function splitMrkdwn(source: string, max: number): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  const cutPoint = (): number => {
    let cut = current.length;
    let before = 0;
    for (const [i, unit] of current.entries()) {
      if (i > 0 && before >= max / 2 && unit.includes('\n')) cut = i;
      before += unit.length;
    }
    return cut;
  };
  const flush = (count: number) => {
    chunks.push(current.slice(0, count).join(''));
    current = current.slice(count);
    length = current.reduce((sum, unit) => sum + unit.length, 0);
  };
  for (const unit of mrkdwnUnits(source, max)) {
    while (current.length > 0 && length + unit.length > max) flush(cutPoint());
    current.push(unit);
    length += unit.length;
  }
  flush(current.length);
  // Slack rejects empty or blank text objects.
  return chunks.map((chunk) => chunk.trim()).filter((chunk) => chunk.length > 0);
}

function section(text: string): SlackBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/**
 * Sections holding a code block of fixed-width lines (tables, charts), split so none is over the
 * section limit. `head` lines (a table's header) are repeated in every part; `lead` (a chart's
 * title) is shown above the first part only.
 */
function codeSections(lead: string, head: string[], body: string[]): SlackBlock[] {
  // Every line is capped, so the lead, the head and at least one row always fit in one section.
  const fitLine = (line: string) => fit(line, codeLine, MAX_CODE_LINE);
  const headLines = head.map(fitLine);
  const sections: string[] = [];
  let prefix = lead ? `${lead}\n` : '';
  let lines: string[] = [];
  let rows = 0;
  // Section size: prefix, the 7 characters of "```\n" + "\n```" less one newline, each line plus a newline.
  let size = 0;
  const start = () => {
    lines = [...headLines];
    rows = 0;
    size = prefix.length + 7 + lines.reduce((sum, line) => sum + line.length + 1, 0);
  };
  const emit = () => {
    sections.push(`${prefix}\`\`\`\n${lines.join('\n')}\n\`\`\``);
    prefix = '';
    start();
  };
  start();
  for (const raw of body) {
    const line = fitLine(raw);
    if (rows > 0 && size + line.length + 1 > LIMIT.sectionText) emit();
    lines.push(line);
    size += line.length + 1;
    rows += 1;
  }
  if (rows > 0 || sections.length === 0) emit();
  return sections.map(section);
}

/**
 * The lead, then each person as Slack's mention (`<@U…>`, a group `<!subteam^S…>`), which Slack
 * shows as their name and pings. Only an id of Slack's shape becomes a mention; anything else is
 * an escaped name. Capped far inside a section: a mention list is never long.
 */
function mentionsMrkdwn(block: MentionsBlock): string {
  const people = block.people.slice(0, 50).map(slackPerson);
  return `${fit(block.lead, mrkdwn, MAX_TITLE)} ${people.join(' ')}`.trim();
}

function tableBlocks(block: TableBlock, native: boolean): SlackBlock[] {
  if (block.columns.length === 0) return [];
  if (native) return [nativeTable(block)];
  const { head, body } = layoutTable(block, MAX_CELL_WIDTH);
  return codeSections('', head, body);
}

/** Whether a table fits Slack's `table` block: a header row plus the rows, each within the cell limit. */
function fitsNativeTable(block: TableBlock): boolean {
  return block.columns.length > 0 && block.columns.length <= LIMIT.tableCells && block.rows.length + 1 <= LIMIT.tableRows;
}

/**
 * Slack's `table` block: readable on a phone (it scrolls sideways, text columns wrap instead of
 * being cut). Cells are raw text, so nothing is escaped; an empty cell shows a dash.
 */
function nativeTable(block: TableBlock): SlackBlock {
  const cell = (text: string) => ({ type: 'raw_text', text: truncate(oneLine(stripMarkup(text)), LIMIT.cellText) || '—' });
  // A row's link (a resource's console page) makes its first cell a rich-text link.
  const linked = (text: string, url: string | null | undefined) =>
    url && isLinkUrl(url)
      ? {
          type: 'rich_text',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url, text: cell(text).text }] }],
        }
      : cell(text);
  return {
    type: 'table',
    column_settings: block.columns.map((column) => (column.align === 'right' ? { align: 'right' } : { is_wrapped: true })),
    rows: [
      block.columns.map((column) => cell(column.label)),
      ...block.rows.map((row, r) => block.columns.map((_, i) => (i === 0 ? linked(row[0] ?? '', block.links?.[r]) : cell(row[i] ?? '')))),
    ],
  };
}

function chartBlocks(block: ChartBlock): SlackBlock[] {
  const title = oneLine(block.title);
  const lead = title ? fit(title, (text) => `*${escapeMrkdwn(text)}*`, MAX_TITLE) : '';
  if (block.bars.length === 0) return lead ? [section(lead)] : [];
  return codeSections(lead, [], layoutBars(block));
}

function factsBlocks(block: FactsBlock): SlackBlock[] {
  const fields = block.facts.map((fact) => {
    const label = oneLine(fact.label);
    const head = label ? `${fit(label, (text) => `*${escapeMrkdwn(text)}*`, MAX_FACT_LABEL)}\n` : '';
    const value = fit(fact.value, mrkdwn, LIMIT.fieldText - head.length);
    // A field's text may not be empty.
    return { type: 'mrkdwn', text: (head + value).trim() || '—' };
  });
  const blocks: SlackBlock[] = [];
  for (let i = 0; i < fields.length; i += LIMIT.fields) {
    blocks.push({ type: 'section', fields: fields.slice(i, i + LIMIT.fields) });
  }
  return blocks;
}

function confirmDialog(button: Button): SlackBlock | undefined {
  const confirm = button.confirm;
  if (!confirm) return undefined;
  return {
    title: plainText(confirm.title, LIMIT.confirmTitle),
    text: { type: 'mrkdwn', text: fit(confirm.text, mrkdwn, LIMIT.confirmText) },
    confirm: plainText(confirm.confirm, LIMIT.confirmButton),
    deny: plainText(confirm.deny, LIMIT.confirmButton),
    // The dialog's confirm button matches the button it guards: red for a destructive action.
    ...(button.style === 'danger' ? { style: 'danger' } : {}),
  };
}

function buttonElement(button: Button): SlackBlock {
  if (button.action.length === 0 || button.action.length > LIMIT.actionId) {
    throw new Error(`Slack action_id must be 1-${LIMIT.actionId} characters, got ${button.action.length}: ${button.action.slice(0, 60)}`);
  }
  if (button.value.length > LIMIT.buttonValue) {
    throw new Error(`Slack button value for ${button.action} is ${button.value.length} characters, max ${LIMIT.buttonValue}`);
  }
  const confirm = confirmDialog(button);
  return {
    type: 'button',
    text: plainText(button.label, LIMIT.buttonText),
    action_id: button.action,
    // An empty value is left out rather than sent as "": the click payload simply has no value.
    ...(button.value ? { value: button.value } : {}),
    ...(button.style ? { style: button.style } : {}),
    ...(confirm ? { confirm } : {}),
    ...(button.url ? { url: button.url } : {}),
  };
}

/** A static_select; option values are identifiers, so an over-long one throws like a button value. */
function selectElement(select: Select): SlackBlock {
  const options = select.options.slice(0, LIMIT.selectOptions).map((option) => {
    if (option.value.length > LIMIT.optionValue)
      throw new Error(`Slack option value for ${select.action} is ${option.value.length} characters, max ${LIMIT.optionValue}`);
    return { text: plainText(option.label, LIMIT.optionText), value: option.value };
  });
  const initial = options.find((o) => o.value === select.initial);
  return {
    type: 'static_select',
    action_id: select.action,
    placeholder: plainText(select.placeholder, LIMIT.placeholder),
    options,
    ...(initial ? { initial_option: initial } : {}),
  };
}

/**
 * Slack needs action_ids unique within one actions block. Buttons of one ActionsBlock sharing an
 * action id is a template bug (the dispatcher could not tell them apart by id alone), so throw.
 * Each actions block gets its own block_id so the same action may appear in several blocks.
 */
function actionsBlocks(block: ActionsBlock, index: number): SlackBlock[] {
  const seen = new Set<string>();
  for (const button of block.buttons) {
    if (seen.has(button.action)) throw new Error(`Duplicate action id in one actions block: ${button.action}`);
    seen.add(button.action);
  }
  if (block.select && seen.has(block.select.action)) throw new Error(`Duplicate action id in one actions block: ${block.select.action}`);
  const elements = [
    ...block.buttons.filter((b) => !b.url || isLinkUrl(b.url)).map(buttonElement),
    ...(block.select && block.select.options.length > 0 ? [selectElement(block.select)] : []),
  ];
  const blocks: SlackBlock[] = [];
  for (let i = 0; i < elements.length; i += LIMIT.actionsElements) {
    const part = i / LIMIT.actionsElements;
    blocks.push({
      type: 'actions',
      block_id: part === 0 ? `actions-${index}` : `actions-${index}-${part}`,
      elements: elements.slice(i, i + LIMIT.actionsElements),
    });
  }
  return blocks;
}

/**
 * Renders a message for chat.postMessage; `text` is what notifications and screen readers show.
 * Hostile code points go first (plain_text has no escaping), then mrkdwn is escaped block by block.
 */
export function renderBlockKit(message: Message): { text: string; blocks: object[] } {
  const msg = sanitiseMessage(message, { keepTimes: true, keepPeople: true });
  // Slack takes one table block per message: the first table that fits is native, others stay text.
  const nativeIndex = msg.blocks.findIndex((block) => block.type === 'table' && fitsNativeTable(block));
  // Slack draws at most two charts a message: later ones keep their numbers, as text.
  const drawn = new Set(
    msg.blocks
      .map((block, index) => (block.type === 'plot' && slackPlot(block.plot) ? index : -1))
      .filter((index) => index >= 0)
      .slice(0, SLACK_PLOT.perMessage),
  );
  const blocks: SlackBlock[] = msg.blocks.flatMap((block, index): SlackBlock[] => {
    switch (block.type) {
      case 'header': {
        const text = oneLine(block.text);
        return text ? [{ type: 'header', text: plainText(text, LIMIT.headerText) }] : [];
      }
      case 'text':
        return splitMrkdwn(block.text, LIMIT.sectionText).map(section);
      case 'facts':
        return factsBlocks(block);
      case 'table':
        return tableBlocks(block, index === nativeIndex);
      case 'chart':
        return chartBlocks(block);
      case 'image': {
        // Slack shows pictures as uploaded files (SlackChat uploads image blocks); a message
        // rendered elsewhere (a response_url answer) names the picture instead.
        const text = fit(`Chart: ${oneLine(block.title)}`, mrkdwn, LIMIT.contextText);
        return [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }];
      }
      case 'plot': {
        // The chart, then its numbers in words: what screen readers and clients without charts show.
        const chart = drawn.has(index) ? slackPlot(block.plot) : null;
        const alt = fit(block.alt, mrkdwn, LIMIT.contextText);
        return [...(chart ? [chart] : []), ...(alt ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: alt }] }] : [])];
      }
      case 'divider':
        return [{ type: 'divider' }];
      case 'actions':
        return actionsBlocks(block, index);
      case 'context': {
        const text = fit(block.text.trim(), mrkdwn, LIMIT.contextText);
        return text ? [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }] : [];
      }
      case 'mentions':
        return block.people.length > 0 ? [section(mentionsMrkdwn(block))] : [];
    }
  });
  // Over 50 blocks Slack rejects the message; say what was dropped instead of failing the alert.
  if (blocks.length > LIMIT.blocks) {
    const hidden = blocks.length - (LIMIT.blocks - 1);
    blocks.splice(LIMIT.blocks - 1, Infinity, {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `… ${hidden} more blocks not shown` }],
    });
  }
  return { text: mrkdwn(msg.summary), blocks };
}
