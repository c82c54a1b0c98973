/**
 * Plain-text renderer for terminals and logs (CLI output, `--dry-run`, log lines).
 *
 * It also owns the text layout of tables and bar charts: Slack has no table or chart block, so
 * block-kit.ts puts exactly these lines inside a code block, and both outputs look the same.
 */
import { isLinkUrl, stripMarkup, type Block, type ChartBlock, type MentionsBlock, type Message, type TableBlock } from '../message.js';
import { sanitiseMessage, stripHostile } from './sanitise.js';

/** Width of a horizontal rule, roughly one default terminal pane. */
const RULE_WIDTH = 40;
/** Length of the longest chart bar: long enough to compare values, short enough for a phone. */
export const BAR_WIDTH = 20;

/**
 * One cell or label on one line: a newline or tab inside a cell would break the alignment. It
 * strips hostile code points itself because Block Kit and Adaptive Cards lay tables out with it.
 */
export function oneLine(text: string): string {
  return stripHostile(stripMarkup(text)).replace(/\s+/g, ' ').trim();
}

/** Columns taken on screen. Code points, so an emoji or accented letter counts once (wide CJK still counts once). */
export function textWidth(text: string): number {
  return [...text].length;
}

/**
 * Cuts `text` to at most `max` UTF-16 units, ending with an ellipsis when something was cut.
 * UTF-16 units because that is what JavaScript's and Slack's length limits count; a surrogate
 * pair is never split so the result stays valid Unicode.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - textWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/**
 * Lays a table out as aligned lines: header, a rule, then one line per row.
 * Returns `head` (header and rule) apart from `body` so a caller that splits a long table can
 * repeat the header on every part. `maxCellWidth` keeps one long cell from pushing every other
 * column off a narrow screen.
 */
export function layoutTable(block: TableBlock, maxCellWidth = Infinity): { head: string[]; body: string[] } {
  const columns = block.columns.map((column) => ({ ...column, label: truncate(oneLine(column.label), maxCellWidth) }));
  // Rows shorter than the header get blank cells; extra cells have no column to go in.
  const rows = block.rows.map((row) => columns.map((_, i) => truncate(oneLine(row[i] ?? ''), maxCellWidth)));
  const widths = columns.map((column, i) => Math.max(textWidth(column.label), ...rows.map((row) => textWidth(row[i] ?? ''))));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => pad(cell, widths[i] ?? 0, columns[i]?.align))
      .join('  ')
      .trimEnd();
  return {
    head: [line(columns.map((column) => column.label)), widths.map((width) => '─'.repeat(width)).join('  ')],
    body: rows.map(line),
  };
}

/**
 * Bar lengths in characters, scaled so the largest value gets the full `width`. Shared with the
 * Adaptive Card renderer, which draws the same bars in a column layout.
 */
export function scaleBars(values: number[], width: number): number[] {
  const max = Math.max(0, ...values.filter(Number.isFinite));
  return values.map((value) => {
    if (!Number.isFinite(value) || value <= 0 || max <= 0) return 0;
    // A small but non-zero value still gets one block, so it never looks the same as zero.
    return Math.max(1, Math.round((value / max) * width));
  });
}

/** Lays a bar chart out as `label  ████████      display` lines (the title is left to the caller). */
export function layoutBars(block: ChartBlock, width = BAR_WIDTH): string[] {
  const lengths = scaleBars(
    block.bars.map((bar) => bar.value),
    width,
  );
  const labels = block.bars.map((bar) => oneLine(bar.label));
  const labelWidth = Math.max(0, ...labels.map(textWidth));
  return block.bars.map((bar, i) => {
    const drawn = '█'.repeat(lengths[i] ?? 0);
    return `${pad(labels[i] ?? '', labelWidth)}  ${pad(drawn, width)}  ${oneLine(bar.display)}`.trimEnd();
  });
}

function renderBlock(block: Block): string | undefined {
  switch (block.type) {
    case 'header': {
      const text = oneLine(block.text);
      return text ? `${text}\n${'═'.repeat(textWidth(text))}` : undefined;
    }
    case 'text':
      return stripMarkup(block.text).trim() || undefined;
    case 'facts': {
      const labels = block.facts.map((fact) => `${oneLine(fact.label)}:`);
      const width = Math.max(0, ...labels.map(textWidth));
      return block.facts
        .map((fact, i) => {
          // Continuation lines of a multi-line value start under the value, not under the label.
          const value = stripMarkup(fact.value)
            .split('\n')
            .join(`\n${' '.repeat(width + 1)}`);
          return `${pad(labels[i] ?? '', width)} ${value}`.trimEnd();
        })
        .join('\n');
    }
    case 'table': {
      if (block.columns.length === 0) return undefined;
      const { head, body } = layoutTable(block);
      // Each row's link (a resource's console page) under the table, as a link button is: "name: url".
      const links = block.rows.flatMap((row, r) => {
        const url = block.links?.[r];
        return url && isLinkUrl(url) ? [`${oneLine(stripMarkup(row[0] ?? ''))}: ${url}`] : [];
      });
      return [...head, ...body, ...(links.length > 0 ? ['', ...links] : [])].join('\n');
    }
    case 'chart': {
      const title = oneLine(block.title);
      return [...(title ? [title] : []), ...layoutBars(block)].join('\n') || undefined;
    }
    case 'divider':
      return '─'.repeat(RULE_WIDTH);
    case 'image':
      return `[chart: ${oneLine(block.title)} (${oneLine(block.filename)})]`;
    case 'plot':
      return `${oneLine(block.plot.title)}: ${oneLine(block.alt)}`;
    case 'actions': {
      const buttons = block.buttons.filter((button) => !button.url);
      const links = block.buttons.filter((button) => button.url && isLinkUrl(button.url));
      const lines = buttons.length > 0 ? [`Actions: ${buttons.map((button) => `[${oneLine(button.label)}]`).join(' ')}`] : [];
      for (const link of links) lines.push(`${oneLine(link.label)}: ${link.url}`);
      if (block.select && block.select.options.length > 0)
        lines.push(`${oneLine(block.select.placeholder)}: ${block.select.options.map((o) => `[${oneLine(o.label)}]`).join(' ')}`);
      return lines.length > 0 ? lines.join('\n') : undefined;
    }
    case 'context':
      return stripMarkup(block.text).trim() || undefined;
    case 'mentions':
      return mentionLine(block);
  }
}

/** A mentions block where nobody can be pinged: the lead and the names. */
export function mentionLine(block: MentionsBlock): string | undefined {
  if (block.people.length === 0) return undefined;
  return `${oneLine(stripMarkup(block.lead))} ${block.people.map((p) => oneLine(p.name)).join(', ')}`.trim();
}

/**
 * Renders a message as plain text: blocks separated by blank lines, no ANSI colours, no markup, and
 * none of the characters that can rewrite a terminal or a log line (see sanitise.ts).
 */
export function renderPlainText(message: Message): string {
  const msg = sanitiseMessage(message);
  const parts = msg.blocks.map(renderBlock).filter((part): part is string => part !== undefined);
  // A message without renderable blocks still says something: its summary.
  return parts.length > 0 ? parts.join('\n\n') : stripMarkup(msg.summary);
}
