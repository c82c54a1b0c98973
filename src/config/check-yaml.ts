import type { Document, Node } from 'yaml';
import { formatPath } from './format-issues.js';
import { yamlLibrary } from './yaml-library.js';

/** A configuration nests about 6 levels; far deeper is a mistake or an attack on the parser. */
export const MAX_DEPTH = 64;
/** Values after aliases are expanded: a large organisation's file holds a few thousand. */
export const MAX_VALUES = 100_000;

// Explicit tags that still mean a plain JSON-like value (`!!str 0123` is a common way to quote).
const PLAIN_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

type Path = (string | number)[];
interface Extent {
  values: number;
  depth: number;
}

/**
 * Finds what a YAML document holds beyond plain values before it becomes JavaScript:
 * tagged values (`!!binary`, `!!timestamp`, `!!set`, custom tags), numbers that overflow,
 * and aliases that expand the document past MAX_VALUES or MAX_DEPTH (billion laughs).
 * Returns one line per problem, each starting with the path, ready to show.
 */
export function checkYamlDocument(doc: Document): string[] {
  const walker = new Walker();
  const root = doc.contents ? walker.walk(doc.contents as Node, 0) : { values: 0, depth: 0 };
  const problems = walker.problems;
  if (root.values > MAX_VALUES) {
    const worst = walker.worstAlias;
    problems.push(
      worst
        ? `${showPath(worst.path)}: alias *${worst.name} repeats ${count(worst.values)} values and the file expands to ${count(root.values)}, more than the ${count(MAX_VALUES)} a configuration may hold`
        : `(top level): the file holds ${count(root.values)} values, more than the ${count(MAX_VALUES)} a configuration may hold`,
    );
  }
  return problems;
}

class Walker {
  readonly problems: string[] = [];
  worstAlias: { path: Path; name: string; values: number } | undefined;
  private readonly anchors = new Map<string, Node>();
  private readonly extents = new Map<Node, Extent>();
  private readonly open = new Set<Node>();
  /** Where the walk is; copied only into a problem, so a long flat list costs no copies. */
  private readonly path: Path = [];

  walk(node: Node, depth: number): Extent {
    if (depth > MAX_DEPTH) {
      this.report(`nested more than ${MAX_DEPTH} levels deep`);
      return { values: 1, depth: 0 };
    }
    if (yamlLibrary().isAlias(node)) return this.alias(node.source, depth);
    this.checkTag(node);
    if (!node.anchor) return this.children(node, depth);
    // Only anchored nodes are remembered: aliases are the only way back to a node.
    this.anchors.set(node.anchor, node);
    this.open.add(node);
    const extent = this.children(node, depth);
    this.open.delete(node);
    this.extents.set(node, extent);
    return extent;
  }

  private children(node: Node, depth: number): Extent {
    const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
    const extent = { values: 1, depth: 0 };
    const add = (child: Extent): void => {
      extent.values += child.values;
      extent.depth = Math.max(extent.depth, child.depth + 1);
    };
    if (isScalar(node)) {
      if (typeof node.value === 'number') {
        const problem = numberProblem(node.value, node.source ?? String(node.value));
        if (problem) this.report(problem);
      }
    } else if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : pair.key === null ? '' : undefined;
        if (key === undefined) this.report('a list or mapping is used as a key; keys must be plain names');
        if (pair.value) add(this.within(key ?? '?', pair.value as Node, depth));
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        if (item) add(this.within(index, item as Node, depth));
      });
    }
    return extent;
  }

  private within(step: string | number, node: Node, depth: number): Extent {
    this.path.push(step);
    const extent = this.walk(node, depth + 1);
    this.path.pop();
    return extent;
  }

  private alias(name: string, depth: number): Extent {
    const target = this.anchors.get(name);
    if (!target) {
      this.report(`alias *${name} has no anchor &${name} before it`);
      return { values: 1, depth: 0 };
    }
    if (this.open.has(target)) {
      this.report(`alias *${name} refers to a value that contains it, which never ends`);
      return { values: 1, depth: 0 };
    }
    const extent = this.extents.get(target) ?? { values: 1, depth: 0 };
    if (depth + extent.depth > MAX_DEPTH) {
      this.report(`alias *${name} nests the file more than ${MAX_DEPTH} levels deep`);
      return { values: 1, depth: 0 };
    }
    if (!this.worstAlias || extent.values > this.worstAlias.values) this.worstAlias = { path: [...this.path], name, values: extent.values };
    return extent;
  }

  private checkTag(node: Node): void {
    const tag = node.tag;
    if (!tag || PLAIN_TAGS.has(tag)) return;
    const shown = tag.replace(/^tag:yaml\.org,2002:/, '!!');
    this.report(`${shown} values are not supported; write a plain string, number, true/false, list or mapping`);
  }

  private report(problem: string): void {
    this.problems.push(`${showPath(this.path)}: ${problem}`);
  }
}

/** Why a parsed number cannot be used as written, or undefined when it can. */
function numberProblem(value: number, source: string): string | undefined {
  if (Number.isNaN(value)) return `${source} is not a number; write a finite number (quote it if you meant text)`;
  if (!Number.isFinite(value)) {
    const literal = /^[-+]?\.inf$/i.test(source);
    return literal
      ? `${source} is infinite; write a finite number (quote it if you meant text)`
      : `${source} overflows: numbers go up to about ±1.8e308; write a smaller number`;
  }
  if (/^[-+]?(\d+|0x[\da-f]+|0o[0-7]+)$/i.test(source) && !Number.isSafeInteger(value)) {
    return `${source} overflows: whole numbers go up to ±${Number.MAX_SAFE_INTEGER} to be held exactly; write a smaller number, or quote it if it is an id`;
  }
  return undefined;
}

/** A path for a message; very deep ones keep their start and say how many levels follow. */
function showPath(path: Path): string {
  if (path.length <= 12) return formatPath(path);
  return `${formatPath(path.slice(0, 8))}... (${path.length - 8} more levels)`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
