/**
 * HTML renderer, for the local web console: the third dialect beside Block Kit and Adaptive Cards.
 *
 * Output is a fragment of semantic HTML that the console page styles; it carries no inline style
 * and no script, so a strict Content-Security-Policy holds. Every string from a message is
 * escaped here: billing data carries arbitrary tag values (`<img src=x onerror=…>` is a valid
 * tag value), and the console inserts these fragments into a live page.
 */
import {
  isLinkUrl,
  mapBold,
  stripMarkup,
  type ActionsBlock,
  type Block,
  type Button,
  type ChartBlock,
  type FactsBlock,
  type ImageBlock,
  type Message,
  type TableBlock,
} from '../message.js';
import { mentionLine, scaleBars } from './plain-text.js';
import { escapeHtml, sanitiseMessage } from './sanitise.js';

export { escapeHtml };

/** Bars are drawn in an SVG 100 units wide, so a bar's length is its percentage of the largest. */
const BAR_SCALE = 100;

/** Neutral inline markup to HTML: **bold** becomes <strong>, the rest is escaped. */
function inline(text: string): string {
  return mapBold(text, escapeHtml, (bold) => `<strong>${bold}</strong>`);
}

/** Text for places without markup (button labels, attributes): bold markers removed, then escaped. */
function plain(text: string): string {
  return escapeHtml(stripMarkup(text));
}

function factsHtml(block: FactsBlock): string {
  const facts = block.facts.map((fact) => `<div class="fact"><dt>${inline(fact.label)}</dt><dd>${inline(fact.value)}</dd></div>`);
  return `<dl class="b-facts">${facts.join('')}</dl>`;
}

function tableHtml(block: TableBlock): string {
  const cls = (i: number) => (block.columns[i]?.align === 'right' ? ' class="num"' : '');
  const head = block.columns.map((column, i) => `<th scope="col"${cls(i)}>${inline(column.label)}</th>`).join('');
  // Every row gets one cell per column: a short row must not shift its cells left.
  // Each cell names its column (data-label): on a phone the page lays a row out as label–value pairs.
  const label = (i: number) => ` data-label="${plain(block.columns[i]?.label ?? '')}"`;
  // A row's link (a resource's console page) makes its first cell a link.
  const cell = (text: string, url: string | null | undefined) =>
    url && isLinkUrl(url) ? `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${plain(text)}</a>` : inline(text);
  const rows = block.rows.map(
    (row, r) =>
      `<tr>${block.columns.map((_, i) => `<td${cls(i)}${label(i)}>${cell(row[i] ?? '', i === 0 ? block.links?.[r] : null)}</td>`).join('')}</tr>`,
  );
  // The wrapper scrolls sideways on a narrow screen instead of squeezing long resource names.
  return `<div class="b-table"><table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/**
 * Bars as SVG rects: a width attribute is not a style, so no inline CSS is needed and the page's
 * CSP can forbid it. The label and display value stay text, readable and selectable.
 */
function chartHtml(block: ChartBlock): string {
  const lengths = scaleBars(
    block.bars.map((bar) => bar.value),
    BAR_SCALE,
  );
  const title = block.title ? `<figcaption>${inline(block.title)}</figcaption>` : '';
  const bars = block.bars.map((bar, i) => {
    const length = lengths[i] ?? 0;
    const svg = `<svg class="bar" viewBox="0 0 ${BAR_SCALE} 10" preserveAspectRatio="none" aria-hidden="true"><rect x="0" y="0" width="${length}" height="10"></rect></svg>`;
    return `<div class="bar-row"><span class="bar-label">${plain(bar.label)}</span>${svg}<span class="bar-value">${plain(bar.display)}</span></div>`;
  });
  return `<figure class="b-chart">${title}${bars.join('')}</figure>`;
}

/**
 * A button names its action and value in data attributes; the console's script posts them back
 * on click. A confirm travels as data-confirm-* attributes that the page shows in a dialog.
 */
function buttonHtml(button: Button): string {
  const style = button.style ? ` btn-${button.style}` : '';
  if (button.url !== undefined)
    return isLinkUrl(button.url)
      ? `<a class="btn btn-link" href="${escapeHtml(button.url)}" target="_blank" rel="noopener noreferrer">${plain(button.label)}</a>`
      : '';
  const attrs = [`data-action="${escapeHtml(button.action)}"`, `data-value="${escapeHtml(button.value)}"`];
  if (button.confirm) {
    attrs.push(
      `data-confirm-title="${plain(button.confirm.title)}"`,
      `data-confirm-text="${plain(button.confirm.text)}"`,
      `data-confirm-ok="${plain(button.confirm.confirm)}"`,
      `data-confirm-deny="${plain(button.confirm.deny)}"`,
    );
  }
  return `<button type="button" class="btn${style}" ${attrs.join(' ')}>${plain(button.label)}</button>`;
}

/** A select shows as one button per option: the console posts the chosen value back like a click. */
function actionsHtml(block: ActionsBlock): string {
  const select = block.select && block.select.options.length > 0 ? block.select : null;
  const options = select
    ? `<span class="b-select">${plain(select.placeholder)}: ${select.options
        .map((o) => buttonHtml({ action: select.action, label: o.value === select.initial ? `✓ ${o.label}` : o.label, value: o.value }))
        .join('')}</span>`
    : '';
  return `<div class="b-actions">${block.buttons.map(buttonHtml).join('')}${options}</div>`;
}

/** An inline PNG; only base64 characters reach the attribute, whatever the message says. */
function imageHtml(block: ImageBlock): string | null {
  if (!/^[A-Za-z0-9+/]+=*$/.test(block.png)) return null;
  // The picture carries its own title; the alt text says what it shows for screen readers.
  return `<figure class="b-image"><img src="data:image/png;base64,${block.png}" alt="${plain(block.alt)}" title="${plain(block.title)}"></figure>`;
}

function blockHtml(block: Block): string | null {
  switch (block.type) {
    case 'header': {
      const text = stripMarkup(block.text).trim();
      return text ? `<h3 class="b-header">${plain(text)}</h3>` : null;
    }
    case 'text':
      return block.text.trim() ? `<p class="b-text">${inline(block.text.trim())}</p>` : null;
    case 'facts':
      return block.facts.length > 0 ? factsHtml(block) : null;
    case 'table':
      return block.columns.length > 0 ? tableHtml(block) : null;
    case 'chart':
      return block.bars.length > 0 || block.title ? chartHtml(block) : null;
    case 'image':
      return imageHtml(block);
    case 'plot':
      // The console draws the PNG when the message carries one; the numbers in words always.
      return `${block.png ? (imageHtml({ type: 'image', title: block.plot.title, alt: block.alt, filename: '', png: block.png }) ?? '') : ''}<p class="b-context">${plain(block.alt)}</p>`;
    case 'divider':
      return '<hr class="b-divider">';
    case 'actions':
      return block.buttons.length > 0 || (block.select?.options.length ?? 0) > 0 ? actionsHtml(block) : null;
    case 'context':
      return block.text.trim() ? `<p class="b-context">${inline(block.text.trim())}</p>` : null;
    case 'mentions': {
      const line = mentionLine(block);
      return line ? `<p class="b-text b-mentions">${plain(line)}</p>` : null;
    }
  }
}

/**
 * Renders a message as an HTML fragment; a message without renderable blocks shows its summary.
 * Control and bidi characters are dropped first (sanitise.ts): they could reorder what a reader sees.
 */
export function renderHtml(message: Message): string {
  const msg = sanitiseMessage(message);
  const parts = msg.blocks.map(blockHtml).filter((part): part is string => part !== null);
  if (parts.length === 0) parts.push(`<p class="b-text">${inline(msg.summary)}</p>`);
  return `<div class="msg-content">${parts.join('')}</div>`;
}
