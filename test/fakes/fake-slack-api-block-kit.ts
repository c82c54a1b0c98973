import { closest } from '../../src/domain/closest.js';
import {
  BLOCKS,
  CHARTS,
  COMPOSITION,
  ELEMENTS,
  MAX_BLOCKS,
  MAX_CHARTS,
  TABLE_CELLS,
  TEXT_OBJECTS,
  VIEWS,
  type FieldRule,
  type ObjectSpec,
} from './fake-slack-api-block-kit-types.js';

/**
 * Checks blocks against Slack's Block Kit (fake-slack-api-block-kit-types.ts) and returns what
 * Slack would refuse, as a list of problems, never a throw, so the fake can answer `invalid_blocks`
 * the way Slack does and a test can read why. Each problem names the block, then where inside it:
 * `blocks[2] (actions): elements[0]: button text must be 1-75 characters`.
 */
export function blockKitProblems(blocks: unknown[], surface: keyof typeof MAX_BLOCKS = 'message'): string[] {
  const problems: string[] = [];
  if (blocks.length > MAX_BLOCKS[surface]) problems.push(`${blocks.length} blocks, max ${MAX_BLOCKS[surface]}`);
  if (blocks.filter((b) => isObject(b) && b.type === 'table').length > 1) problems.push('only one table block per message');
  const charts = blocks.filter((b) => isObject(b) && b.type === 'data_visualization').length;
  if (charts > MAX_CHARTS) problems.push(`${charts} data_visualization blocks, max ${MAX_CHARTS} per message`);
  const blockIds = new Set<string>();
  blocks.forEach((block, i) => {
    const type = isObject(block) ? block.type : undefined;
    const at = `blocks[${i}] (${String(type)})`;
    if (!isObject(block)) return problems.push(`blocks[${i}]: a block must be an object`);
    const spec = typeof type === 'string' ? BLOCKS[type] : undefined;
    if (!spec) return problems.push(`${at}: ${unsupported('block', type, Object.keys(BLOCKS))}`);
    const found: string[] = [];
    checkObject(block, spec, String(type), '', found);
    found.push(...blockRules(block));
    problems.push(...found.map((problem) => `${at}: ${problem}`));
    if (typeof block.block_id === 'string') {
      if (blockIds.has(block.block_id)) problems.push(`${at}: duplicate block_id ${block.block_id}`);
      blockIds.add(block.block_id);
    }
  });
  return problems;
}

/** A view of views.open or views.publish: its own fields, then its blocks on that surface. */
export function viewProblems(view: unknown): string[] {
  if (!isObject(view)) return ['view must be an object'];
  const spec = typeof view.type === 'string' ? VIEWS[view.type] : undefined;
  if (!spec) return [`view: ${unsupported('view', view.type, Object.keys(VIEWS))}`];
  const problems: string[] = [];
  checkObject(view, spec, String(view.type), 'view', problems);
  if (!Array.isArray(view.blocks)) return [...problems, 'view: blocks must be an array'];
  const hasInput = view.blocks.some((block) => isObject(block) && block.type === 'input');
  if (view.type === 'modal' && hasInput && view.submit === undefined) problems.push('view: a modal with input blocks needs submit');
  return [...problems, ...blockKitProblems(view.blocks, view.type as keyof typeof MAX_BLOCKS)];
}

/** Objects that carry a `type`, as a field that holds "one of these types" finds them. */
const TYPED: Record<string, ObjectSpec> = { ...ELEMENTS, ...TEXT_OBJECTS, ...TABLE_CELLS, ...CHARTS, rich_text: BLOCKS.rich_text! };

/** Rules across fields, which a field list cannot say. */
function blockRules(block: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (block.type === 'section' && block.text === undefined && block.fields === undefined) problems.push('section needs text or fields');
  if (block.type === 'actions' && Array.isArray(block.elements)) {
    const ids = block.elements.map((e) => (isObject(e) ? e.action_id : undefined)).filter((id) => id !== undefined);
    for (const id of new Set(ids)) if (ids.filter((other) => other === id).length > 1) problems.push(`duplicate action_id ${String(id)}`);
  }
  if (block.type === 'data_visualization' && isObject(block.chart)) problems.push(...chartRules(block.chart));
  return problems;
}

/**
 * A chart's rules across its parts: a pie's slices are positive; every series has a point for
 * each category of the axis and none other, and series names differ.
 */
function chartRules(chart: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [i, segment] of asArray(chart.segments).entries())
    if (isObject(segment) && typeof segment.value === 'number' && !(segment.value > 0))
      problems.push(`chart segments[${i}] value must be greater than 0`);
  if (chart.type === 'pie') return problems;
  const categories = isObject(chart.axis_config) ? asArray(chart.axis_config.categories) : [];
  const names = asArray(chart.series).map((series) => (isObject(series) ? series.name : undefined));
  for (const name of new Set(names))
    if (names.filter((other) => other === name).length > 1) problems.push(`chart series name "${String(name)}" repeats`);
  for (const [i, series] of asArray(chart.series).entries()) {
    const labels = isObject(series) ? asArray(series.data).map((point) => (isObject(point) ? point.label : undefined)) : [];
    const same =
      labels.length === categories.length && categories.every((c) => labels.includes(c)) && labels.every((l) => categories.includes(l));
    if (!same) problems.push(`chart series[${i}] labels must match axis_config categories`);
  }
  return problems;
}

/** A static select lists options or option groups, and its initial option is one of them. */
function selectRules(element: Record<string, unknown>): string[] {
  if (element.type !== 'static_select' && element.type !== 'multi_static_select') return [];
  if ((element.options === undefined) === (element.option_groups === undefined))
    return [`${element.type} needs options or option_groups, one of them`];
  const listed = [
    ...asArray(element.options),
    ...asArray(element.option_groups).flatMap((group) => (isObject(group) ? asArray(group.options) : [])),
  ].map((option) => (isObject(option) ? option.value : undefined));
  const initial = [element.initial_option, ...asArray(element.initial_options)].filter((option) => option !== undefined);
  return initial
    .map((option) => (isObject(option) ? option.value : undefined))
    .filter((value) => !listed.includes(value))
    .map((value) => `${element.type} initial option "${String(value)}" is not one of its options`);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * One object against its spec: no unknown field, every required one, each present one by its rule.
 * `where` is the path inside the block ('' for the block itself); problems say `<owner> <field> ...`.
 */
function checkObject(node: Record<string, unknown>, spec: ObjectSpec, owner: string, where: string, out: string[]): void {
  const say = (text: string) => out.push(where ? `${where}: ${text}` : text);
  for (const key of Object.keys(node))
    if (key !== 'type' && !(key in spec.fields)) say(`${owner} has unknown field "${key}"${suggest(key, Object.keys(spec.fields))}`);
  for (const key of spec.required ?? []) if (node[key] === undefined) say(`${owner} needs ${key}`);
  for (const [key, rule] of Object.entries(spec.fields))
    if (node[key] !== undefined) checkValue(node[key], rule, `${owner} ${key}`, where ? `${where}.${key}` : key, say, out);
  selectRules(node).forEach(say);
}

/** One value by its rule; `label` names it in problems, `path` is where its children are. */
function checkValue(value: unknown, rule: FieldRule, label: string, path: string, say: (text: string) => void, out: string[]): void {
  switch (rule.kind) {
    case 'string':
      if (typeof value !== 'string') return say(`${label} must be a string`);
      if (rule.oneOf && !rule.oneOf.includes(value)) return say(`${label} must be one of ${rule.oneOf.join(', ')}, got "${value}"`);
      return checkLength(value, rule.min ?? 0, rule.max, label, say);
    case 'boolean':
    case 'number':
      return typeof value === rule.kind ? undefined : say(`${label} must be a ${rule.kind}`);
    case 'json':
      return;
    case 'text': {
      if (!isObject(value) || (value.type !== 'plain_text' && value.type !== 'mrkdwn'))
        return say(`${label} must be a text object (plain_text${rule.plainOnly ? '' : ' or mrkdwn'})`);
      if (rule.plainOnly && value.type !== 'plain_text') return say(`${label} must be plain_text, got ${String(value.type)}`);
      checkObject(value, TEXT_OBJECTS[value.type]!, value.type, path, out);
      return typeof value.text === 'string' ? checkLength(value.text, rule.min ?? 1, rule.max, label, say) : undefined;
    }
    case 'object':
      if (!isObject(value)) return say(`${label} must be an object`);
      return checkObject(value, COMPOSITION[rule.of], rule.of, path, out);
    case 'typed': {
      const type = isObject(value) ? value.type : undefined;
      if (!isObject(value) || typeof type !== 'string' || !rule.of.includes(type))
        return say(`${label}: ${unsupported('element', type, rule.of)}`);
      // A text object standing alone (a context element) holds at most 3000 characters, as a section's text.
      if (type === 'plain_text' || type === 'mrkdwn') return checkValue(value, { kind: 'text', max: 3000 }, label, path, say, out);
      return checkObject(value, TYPED[type]!, type, `${path} (${type})`, out);
    }
    case 'array': {
      if (!Array.isArray(value)) return say(`${label} must be an array`);
      const min = rule.min ?? 0;
      if (value.length < min || (rule.max !== undefined && value.length > rule.max))
        say(`${label} must have ${rule.max === undefined ? `at least ${min}` : `${min}-${rule.max}`} items, got ${value.length}`);
      value.forEach((item, i) => checkValue(item, rule.item, `${label}[${i}]`, `${path}[${i}]`, say, out));
      return;
    }
  }
}

function checkLength(text: string, min: number, max: number | undefined, label: string, say: (text: string) => void): void {
  if (text.length >= min && (max === undefined || text.length <= max)) return;
  say(max === undefined ? `${label} must be at least ${min} characters` : `${label} must be ${min}-${max} characters`);
}

function unsupported(what: string, type: unknown, known: readonly string[]): string {
  if (typeof type !== 'string') return `${what} without a type (one of ${known.join(', ')})`;
  return `unsupported ${what} type "${type}"${suggest(type, known)}`;
}

function suggest(word: string, known: readonly string[]): string {
  const near = closest(word, known);
  return near ? ` (did you mean "${near}"?)` : '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
