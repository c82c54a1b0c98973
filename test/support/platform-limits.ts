/**
 * The limits the receiving platforms enforce, as checks any test can run on rendered output:
 * Slack's Block Kit limits, and the adaptivecards library's own parser and validator for 1.5.
 */
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import { registryWithCharts } from './card-charts.js';

// The package's main entry (lib/) is CommonJS that plain Node ESM cannot import by name; the
// bundled dist build loads fine through require and needs no DOM for parsing and validation.
const AC: any = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js');
const CHART_REGISTRY = registryWithCharts(AC);

/** Slack's documented Block Kit limits, written out independently of the renderer's own table. */
export const SLACK = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  contextElements: 10,
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
};

export type SlackText = { type: string; text: string };
export type SlackBlock = {
  type: string;
  block_id?: string;
  text?: SlackText;
  fields?: SlackText[];
  elements?: Array<Record<string, unknown>>;
  rows?: SlackText[][];
};

/** The one link a rich-text table cell holds: a section of a single link element with its text and an https URL. */
function richTextLink(cell: SlackText): { text: string; url: string } {
  const elements = (cell as unknown as { elements: { type: string; elements: { type: string; text: string; url: string }[] }[] }).elements;
  expect(elements.map((e) => e.type)).toEqual(['rich_text_section']);
  const [link] = elements[0]!.elements;
  expect(elements[0]!.elements).toHaveLength(1);
  expect(link!.type).toBe('link');
  expect(link!.url).toMatch(/^https:\/\//);
  return link!;
}

export function checkSlackLimits(blocks: SlackBlock[]): void {
  expect(blocks.length).toBeLessThanOrEqual(SLACK.blocks);
  const blockIds = blocks.flatMap((block) => (block.block_id ? [block.block_id] : []));
  expect(new Set(blockIds).size).toBe(blockIds.length);
  expect(blocks.filter((block) => block.type === 'table').length).toBeLessThanOrEqual(1);
  for (const block of blocks) {
    switch (block.type) {
      case 'header':
        expect(block.text?.type).toBe('plain_text');
        expect(block.text?.text.length).toBeLessThanOrEqual(SLACK.headerText);
        break;
      case 'section':
        expect(block.text ?? block.fields).toBeDefined();
        if (block.text) {
          expect(block.text.text.length).toBeGreaterThan(0);
          expect(block.text.text.length).toBeLessThanOrEqual(SLACK.sectionText);
        }
        if (block.fields) {
          expect(block.fields.length).toBeLessThanOrEqual(SLACK.fields);
          for (const field of block.fields) {
            expect(field.text.length).toBeGreaterThan(0);
            expect(field.text.length).toBeLessThanOrEqual(SLACK.fieldText);
          }
        }
        break;
      case 'context':
        expect(block.elements?.length).toBeLessThanOrEqual(SLACK.contextElements);
        for (const element of block.elements ?? []) expect(String(element.text).length).toBeLessThanOrEqual(SLACK.sectionText);
        break;
      case 'actions': {
        const elements = block.elements ?? [];
        expect(elements.length).toBeGreaterThan(0);
        expect(elements.length).toBeLessThanOrEqual(SLACK.actionsElements);
        const actionIds = elements.map((element) => String(element.action_id));
        expect(new Set(actionIds).size).toBe(actionIds.length);
        for (const element of elements) {
          if (element.type === 'static_select') {
            const select = element as {
              action_id: string;
              placeholder: SlackText;
              options: { text: SlackText; value: string }[];
              initial_option?: { value: string };
            };
            expect(select.placeholder.type).toBe('plain_text');
            expect(select.placeholder.text.length).toBeLessThanOrEqual(SLACK.placeholder);
            expect(select.options.length).toBeGreaterThan(0);
            expect(select.options.length).toBeLessThanOrEqual(SLACK.selectOptions);
            for (const option of select.options) {
              expect(option.text.type).toBe('plain_text');
              expect(option.text.text.length).toBeLessThanOrEqual(SLACK.optionText);
              expect(option.value.length).toBeLessThanOrEqual(SLACK.optionValue);
            }
            if (select.initial_option) expect(select.options.map((o) => o.value)).toContain(select.initial_option.value);
            continue;
          }
          const button = element as { text: SlackText; action_id: string; value?: string; confirm?: Record<string, SlackText> };
          expect(button.text.type).toBe('plain_text');
          expect(button.text.text.length).toBeLessThanOrEqual(SLACK.buttonText);
          expect(button.action_id.length).toBeLessThanOrEqual(SLACK.actionId);
          expect((button.value ?? '').length).toBeLessThanOrEqual(SLACK.buttonValue);
          if (button.confirm) {
            expect(button.confirm.title?.type).toBe('plain_text');
            expect(button.confirm.title?.text.length).toBeLessThanOrEqual(SLACK.confirmTitle);
            expect(button.confirm.text?.text.length).toBeLessThanOrEqual(SLACK.confirmText);
            expect(button.confirm.confirm?.text.length).toBeLessThanOrEqual(SLACK.confirmButton);
            expect(button.confirm.deny?.text.length).toBeLessThanOrEqual(SLACK.confirmButton);
          }
        }
        break;
      }
      case 'table':
        expect(block.rows?.length).toBeGreaterThan(0);
        expect(block.rows?.length).toBeLessThanOrEqual(SLACK.tableRows);
        for (const row of block.rows ?? []) {
          expect(row.length).toBeLessThanOrEqual(SLACK.tableCells);
          for (const cell of row) {
            // A cell is raw text, or rich text holding one link (a resource's console page).
            const link = cell.type === 'rich_text' ? richTextLink(cell) : null;
            const text = link ? link.text : cell.text;
            if (!link) expect(cell.type).toBe('raw_text');
            expect(text.length).toBeGreaterThan(0);
            expect(text.length).toBeLessThanOrEqual(SLACK.cellText);
          }
        }
        break;
      case 'divider':
        break;
      case 'data_visualization':
        // The fake Slack checks its fields (fake-slack-api-block-kit.ts); here, how many a message holds.
        expect(blocks.filter((b) => b.type === 'data_visualization').length).toBeLessThanOrEqual(2);
        break;
      default:
        throw new Error(`unexpected Slack block type ${block.type}`);
    }
  }
}

/** Parses a card the way a host would and returns every parse and validation complaint. */
export function adaptiveCardProblems(json: object): string[] {
  const card = new AC.AdaptiveCard();
  // Targeting 1.5 makes the parser flag any element or action newer than the version we declare.
  const context = new AC.SerializationContext(AC.Versions.v1_5);
  // Teams' chart elements, checked as Teams knows them (the library alone knows none).
  context.setElementRegistry(CHART_REGISTRY);
  card.parse(json, context);
  const problems: string[] = [];
  for (let i = 0; i < context.eventCount; i++) problems.push(`parse: ${context.getEventAt(i).message}`);
  // validateProperties() checks what parsing does not: duplicate ids, version, too many actions
  // for the default host config (5 per set).
  for (const event of card.validateProperties().validationEvents) problems.push(`validate: ${event.message}`);
  return problems;
}
