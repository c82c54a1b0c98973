/**
 * Adaptive Card 1.5 renderer, for Microsoft Teams (Universal Actions, so buttons are Action.Execute).
 *
 * Adaptive Cards render text themselves (no HTML, so no entities), but TextBlock and FactSet text
 * is markdown in Teams: **bold** from the neutral markup stays, and every other character that
 * could form emphasis or a link is escaped (sanitise.ts), so data cannot format or link itself.
 * Action titles, fallback and speech text are not markdown and go in as plain text, with link syntax
 * neutralised (some hosts format them anyway).
 */
import {
  isLinkUrl,
  mapBold,
  mapPeople,
  peopleIn,
  pingableOn,
  stripMarkup,
  type ActionsBlock,
  type Block,
  type Button,
  type ChartBlock,
  type ImageBlock,
  type Mention,
  type MentionsBlock,
  type Message,
  type TableBlock,
} from '../message.js';
import { BAR_WIDTH, oneLine, scaleBars, textWidth } from './plain-text.js';
import { escapeCardMarkdown, neutraliseLinks, sanitiseMessage } from './sanitise.js';
import { cardPlot } from './card-plot.js';

type Element = Record<string, unknown>;

/**
 * The adaptivecards library's default host config shows at most 5 actions per set (Teams allows
 * 6); longer button rows are split into several ActionSets instead of having buttons dropped.
 */
const MAX_ACTIONS_PER_SET = 5;
/** Characters of button titles a 360 px card shows in one row, counting each button's padding as BUTTON_PADDING. */
const ROW_CHARACTERS = 36;
const BUTTON_PADDING = 5;
/**
 * Teams rejects messages over about 28 KB and each table cell costs ~80 bytes of JSON, so long
 * tables are cut with a note; the full data belongs in a linked report, not in the card.
 */
const MAX_TABLE_ROWS = 50;
/** Relative column widths stop growing here, so one long cell cannot squeeze the other columns. */
const MAX_COLUMN_WEIGHT = 30;
/** A text column wider than this wraps between its words: the figures beside it keep their room. */
const TEXT_COLUMN_WEIGHT = 14;

/** Neutral markup to TextBlock markdown: **bold** stays bold, a person a mention, everything else is literal. */
function cardText(text: string): string {
  return mapBold(
    text,
    (part) => mapPeople(part, escapeCardMarkdown, (person) => teamsPerson(person).text),
    (bold) => `**${bold}**`,
  );
}

/**
 * Teams pings a person named as `<at>Name</at>` in the text when the card lists the same text
 * with their id among `msteams.entities`; a group, or a person without a Teams id, is named only.
 */
function teamsPerson(person: Mention): { text: string; entity?: Element } {
  const name = escapeCardMarkdown(oneLine(person.name));
  // Teams ids (its chat port's platform is `msteams`) are 29:… or Entra object ids: anything else is named, never sent as an entity.
  if (!pingableOn(person, 'msteams') || person.group || !/^[\w:.@-]{1,200}$/.test(person.id)) return { text: name };
  const text = `<at>${name}</at>`;
  return { text, entity: { type: 'mention', text, mentioned: { id: person.id, name: oneLine(person.name) } } };
}

/** A TextBlock of neutral text, escaped here. */
function textBlock(text: string, extra: Element = {}): Element {
  return { type: 'TextBlock', text: cardText(text), wrap: true, ...extra };
}

/** A TextBlock that is one link: its text escaped, its URL's parentheses encoded so they cannot end the link early. */
function linkBlock(text: string, url: string): Element {
  const target = url.replace(/\(/g, '%28').replace(/\)/g, '%29');
  return { type: 'TextBlock', text: `[${escapeCardMarkdown(stripMarkup(text))}](${target})`, wrap: true };
}

/** A one-line TextBlock (chart labels and values): the text has no markup left and is escaped whole. */
function lineBlock(text: string, extra: Element = {}): Element {
  return { type: 'TextBlock', text: escapeCardMarkdown(oneLine(text)), wrap: false, ...extra };
}

function tableElement(block: TableBlock): Element[] {
  const shown = block.rows.slice(0, MAX_TABLE_ROWS);
  // Column widths are relative weights: proportional to the longest content, within bounds.
  // On a phone (a 360 px card) a figure must not break inside ("$8,822./15"): a right-aligned
  // column is as wide as its longest figure, uncapped; a text column wraps between words, so it
  // weighs its longest word or a short cap, whichever is more. A header wraps between its words too.
  const weight = (i: number) => {
    const right = block.columns[i]?.align === 'right';
    const cells = shown.map((row) => stripMarkup(row[i] ?? ''));
    const words = [block.columns[i]?.label ?? '', ...cells].flatMap((cell) => stripMarkup(cell).split(/\s+/));
    const longestWord = Math.max(1, ...words.map(textWidth));
    if (right) return Math.max(longestWord, ...cells.map(textWidth));
    return Math.min(MAX_COLUMN_WEIGHT, Math.max(longestWord, Math.min(TEXT_COLUMN_WEIGHT, Math.max(1, ...cells.map(textWidth)))));
  };
  const row = (cells: string[], header: boolean, url?: string | null) => ({
    type: 'TableRow',
    // Every row gets one cell per column, so a short row does not shift cells left.
    cells: block.columns.map((_, i) => {
      const text = cells[i] ?? '';
      // A row's link (a resource's console page) makes its first cell a markdown link.
      const item = i === 0 && url && isLinkUrl(url) ? linkBlock(text, url) : textBlock(text, header ? { weight: 'Bolder' } : {});
      // A blank cell is an empty cell, not an empty TextBlock (a TextBlock's text is required).
      return { type: 'TableCell', items: text ? [item] : [] };
    }),
  });
  const table: Element = {
    type: 'Table',
    firstRowAsHeader: true,
    columns: block.columns.map((column, i) => ({
      width: weight(i),
      ...(column.align === 'right' ? { horizontalCellContentAlignment: 'Right' } : {}),
    })),
    rows: [
      row(
        block.columns.map((column) => column.label),
        true,
      ),
      ...shown.map((cells, r) => row(cells, false, block.links?.[r])),
    ],
  };
  const hidden = block.rows.length - shown.length;
  return hidden > 0 ? [table, textBlock(`… ${hidden} more rows not shown`, { size: 'Small', isSubtle: true })] : [table];
}

/**
 * A bar chart as one ColumnSet per bar: label, bar, value. Fixed column weights line the bars up
 * across rows, which text bars in a proportional font would not.
 */
function chartElement(block: ChartBlock): Element {
  const lengths = scaleBars(
    block.bars.map((bar) => bar.value),
    BAR_WIDTH,
  );
  const column = (width: number, items: Element[]) => ({ type: 'Column', width, items });
  return {
    type: 'Container',
    items: [
      ...(block.title ? [textBlock(block.title, { weight: 'Bolder' })] : []),
      ...block.bars.map((bar, i) => {
        const length = lengths[i] ?? 0;
        return {
          type: 'ColumnSet',
          spacing: 'Small',
          columns: [
            column(3, [lineBlock(bar.label)]),
            // A zero bar is an empty column rather than an empty TextBlock (text is required).
            column(5, length > 0 ? [lineBlock('█'.repeat(length), { color: 'Accent' })] : []),
            column(2, [lineBlock(bar.display, { horizontalAlignment: 'Right' })]),
          ],
        };
      }),
    ],
  };
}

function executeAction(button: Button, title: string): Element {
  return {
    type: 'Action.Execute',
    title,
    verb: button.action,
    data: { value: button.value },
    ...(button.style === 'primary' ? { style: 'positive' } : {}),
    ...(button.style === 'danger' ? { style: 'destructive' } : {}),
  };
}

/**
 * Adaptive Cards have no confirm dialog, so a guarded button opens an inline card holding the
 * question and the real action: the show-card is the confirm step. Clicking the button again
 * folds the card away, which is the "deny" (the deny label has no place to go).
 */
function buttonAction(button: Button): Element {
  const label = stripMarkup(button.label);
  if (button.url) return { type: 'Action.OpenUrl', title: label, url: button.url };
  const confirm = button.confirm;
  if (!confirm) return executeAction(button, label);
  return {
    type: 'Action.ShowCard',
    title: label,
    ...(button.style === 'danger' ? { style: 'destructive' } : {}),
    card: {
      type: 'AdaptiveCard',
      body: [textBlock(confirm.title, { weight: 'Bolder' }), textBlock(confirm.text)],
      actions: [executeAction(button, stripMarkup(confirm.confirm))],
    },
  };
}

function actionSets(block: ActionsBlock): Element[] {
  const sets: Element[] = [];
  const buttons = block.buttons.filter((b) => !b.url || isLinkUrl(b.url));
  for (const row of rowsThatFit(buttons.map((b) => stripMarkup(b.label)))) {
    sets.push({ type: 'ActionSet', actions: row.map((i) => buttonAction(buttons[i]!)) });
  }
  // A select becomes one Action.Execute per option, under its placeholder: the chosen value
  // arrives with the verb exactly as a button's does.
  const select = block.select;
  if (select && select.options.length > 0) {
    sets.push(textBlock(select.placeholder, { size: 'Small', isSubtle: true }));
    const titles = select.options.map((o) => stripMarkup(o.value === select.initial ? `✓ ${o.label}` : o.label));
    for (const row of rowsThatFit(titles)) {
      sets.push({
        type: 'ActionSet',
        actions: row.map((i) =>
          executeAction({ action: select.action, label: select.options[i]!.label, value: select.options[i]!.value }, titles[i]!),
        ),
      });
    }
  }
  return sets;
}

/**
 * Buttons a row, as many as fit a 360 px card (a phone): about ROW_CHARACTERS of titles with each
 * button's padding, never more than MAX_ACTIONS_PER_SET; returns each row's indexes.
 */
function rowsThatFit(titles: string[]): number[][] {
  const rows: number[][] = [];
  let row: number[] = [];
  let width = 0;
  titles.forEach((title, i) => {
    const cost = textWidth(title) + BUTTON_PADDING;
    if (row.length > 0 && (row.length === MAX_ACTIONS_PER_SET || width + cost > ROW_CHARACTERS)) {
      rows.push(row);
      row = [];
      width = 0;
    }
    row.push(i);
    width += cost;
  });
  if (row.length > 0) rows.push(row);
  return rows;
}

/** Teams shows data URIs in Image elements: the chart travels inside the card. */
function imageElement(block: ImageBlock): Element[] {
  if (!/^[A-Za-z0-9+/]+=*$/.test(block.png)) return [];
  return [
    textBlock(block.title, { weight: 'Bolder' }),
    { type: 'Image', url: `data:image/png;base64,${block.png}`, altText: stripMarkup(block.alt), size: 'Stretch' },
  ];
}

function renderBlock(block: Exclude<Block, { type: 'divider' }>): Element[] {
  switch (block.type) {
    case 'header':
      // style "heading" lets screen readers announce it as a heading.
      return block.text ? [textBlock(block.text, { style: 'heading', size: 'Large', weight: 'Bolder' })] : [];
    case 'text':
      return block.text ? [textBlock(block.text)] : [];
    case 'facts':
      if (block.facts.length === 0) return [];
      // Teams reads fact titles and values as markdown too.
      return [{ type: 'FactSet', facts: block.facts.map((fact) => ({ title: cardText(fact.label), value: cardText(fact.value) })) }];
    case 'table':
      return block.columns.length > 0 ? tableElement(block) : [];
    case 'chart':
      return block.bars.length > 0 || block.title ? [chartElement(block)] : [];
    case 'image':
      return imageElement(block);
    case 'plot':
      // The chart, then its numbers in words (charts have no alt text of their own).
      return [cardPlot(block, cardText), textBlock(block.alt, { size: 'Small', isSubtle: true })];
    case 'actions':
      return actionSets(block);
    case 'context':
      return block.text ? [textBlock(block.text, { size: 'Small', isSubtle: true })] : [];
    case 'mentions':
      return block.people.length > 0 ? [{ type: 'TextBlock', wrap: true, text: mentionsText(block) }] : [];
  }
}

/** The lead, then each person named or mentioned. */
function mentionsText(block: MentionsBlock): string {
  return `${cardText(block.lead)} ${block.people.map((p) => teamsPerson(p).text).join(', ')}`.trim();
}

/** Every mention the card's text makes, once each: Teams pings only those listed here. */
function entitiesOf(blocks: readonly Block[]): Element[] {
  const people = blocks.flatMap((block) => (block.type === 'mentions' ? block.people : peopleIn(JSON.stringify(block))));
  const entities = new Map<string, Element>();
  for (const person of people) {
    const { text, entity } = teamsPerson(person);
    if (entity) entities.set(`${text}\u0000${person.id}`, entity);
  }
  return [...entities.values()];
}

/** Renders a message as an Adaptive Card 1.5 object, ready to JSON-serialize into a Teams attachment. */
export function renderAdaptiveCard(message: Message): object {
  const msg = sanitiseMessage(message, { keepPeople: true });
  const body: Element[] = [];
  // Adaptive Cards have no divider element: a divider becomes the separator line of what follows.
  let separateNext = false;
  for (const block of msg.blocks) {
    if (block.type === 'divider') {
      separateNext = body.length > 0;
      continue;
    }
    const elements = renderBlock(block);
    const first = elements[0];
    if (first && separateNext) {
      first.separator = true;
      separateNext = false;
    }
    body.push(...elements);
  }
  // Plain text, but hosts that format it would make a link of the data's `[label](url)`.
  const summary = neutraliseLinks(stripMarkup(msg.summary));
  const entities = entitiesOf(msg.blocks);
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.5',
    fallbackText: summary,
    speak: summary,
    // Teams-only: tables and bars need the full chat width; mentions ping (other hosts ignore both).
    msteams: { width: 'Full', ...(entities.length > 0 ? { entities } : {}) },
    body,
  };
}
