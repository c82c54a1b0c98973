import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../support/config.js';
import { lineNestedTooDeep } from '../../src/config/yaml-depth.js';
import { errorOf } from '../support/error-of.js';
import { cli, workDir } from '../support/run-cli.js';

/** Nine anchors, each a list of nine aliases of the one before: 9^9 strings once expanded. */
function billionLaughs(): string {
  const lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < 10; i++) {
    const name = String.fromCharCode(97 + i);
    const previous = String.fromCharCode(96 + i);
    lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

async function validate(text: string) {
  const dir = workDir();
  writeFileSync(join(dir, 'burnrate.yml'), text);
  const started = performance.now();
  const result = await cli(['config', 'validate', '--config', 'burnrate.yml'], { cwd: dir });
  return { ...result, ms: performance.now() - started };
}

const team = (budget: string) => `teams:\n  - id: ml\n    budget: ${budget}\n`;

describe('configuration that could exhaust memory or the stack', () => {
  it('refuses a billion-laughs alias bomb as a usage error, naming the alias', async () => {
    const result = await validate(billionLaughs());
    expect(result.code).toBe(2);
    expect(result.err).not.toContain('unexpected error');
    // Every list and string counts as one value: anchor n holds 1 + 9 x (anchor n-1) of them.
    const sizes = [10];
    for (let i = 1; i < 10; i++) sizes.push(1 + 9 * sizes[i - 1]!);
    const total = 1 + sizes.reduce((sum, n) => sum + n, 0);
    const shown = (n: number) => n.toLocaleString('en-US');
    expect(result.err).toContain(
      `j[0]: alias *i repeats ${shown(sizes[8]!)} values and the file expands to ${shown(total)}, more than the 100,000`,
    );
    expect(result.err).toContain('keep anchors and aliases to small shared blocks');
    expect(result.ms).toBeLessThan(5000);
    expect(errorOf(() => parseConfigText(billionLaughs())).code).toBe('burnrate_config_invalid');
  });

  it('refuses nesting deep enough to overflow the parser, with its line', async () => {
    const result = await validate(`admins: [U1]\n# [[[[\nteams: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
    expect(result.code).toBe(2);
    expect(result.err).toContain('burnrate.yml nests lists or mappings too deeply to read (line 3)');
    expect(result.err).toContain('at most 64 levels');
    expect(result.ms).toBeLessThan(5000);
  });

  it.each([
    ['block sequences', '- '],
    ['explicit keys', '? '],
  ])('refuses %s nested on one line past what the parser survives', (_, indicator) => {
    const error = errorOf(() => parseConfigText(`admins:\n  ${indicator.repeat(100_000)}x\n`));
    expect(error.code).toBe('burnrate_config_invalid');
    expect(error.message).toContain('nests lists or mappings too deeply to read (line 2)');
  });

  it('counts brackets inside quotes and comments as text', () => {
    const text = `teams:\n  - id: ml\n    name: "${'['.repeat(200)}" # ${'{'.repeat(200)}\n`;
    expect(parseConfigText(text).teams[0]?.name).toBe('['.repeat(200));
  });

  it('refuses nesting past 64 levels that the parser survives, with its path', () => {
    const text = Array.from({ length: 100 }, (_, depth) => `${' '.repeat(depth)}k${depth}:`).join('\n');
    const error = errorOf(() => parseConfigText(text));
    expect(error.code).toBe('burnrate_config_invalid');
    expect(error.message).toContain('k0.k1.k2.k3.k4.k5.k6.k7... (57 more levels): nested more than 64 levels deep');
  });

  it('refuses an alias that nests a shallow-looking file too deeply', () => {
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;
    const error = errorOf(() => parseConfigText(`a: &deep ${deep}\nb: ${'['.repeat(30)}*deep${']'.repeat(30)}\n`));
    expect(error.message).toMatch(/b(\[0\]){7}\.\.\. \(23 more levels\): alias \*deep nests the file more than 64 levels deep/);
  });

  it('refuses a file too large to be a configuration before reading it', async () => {
    const result = await validate(`# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    expect(result.code).toBe(2);
    expect(result.err).toContain('burnrate.yml is 2.0 MB; a configuration file is at most 256 KB');
    expect(result.err).toContain('sources[].paths');
    expect(errorOf(() => parseConfigText(`# ${'x'.repeat(300 * 1024)}`)).message).toContain('burnrate.yml is 301 KB');
  });

  it('names aliases without an anchor and aliases inside their own anchor', () => {
    expect(errorOf(() => parseConfigText('admins: *nobody\n')).message).toContain('admins: alias *nobody has no anchor &nobody before it');
    expect(errorOf(() => parseConfigText('admins: &loop [*loop]\n')).message).toContain(
      'admins[0]: alias *loop refers to a value that contains it',
    );
  });

  it('still reads anchors and aliases used to share a block', () => {
    const text = `teams:\n  - id: a\n    budget: &shared { monthly: 1000, thresholds: [50, 100] }\n  - id: b\n    budget: *shared\n`;
    const config = parseConfigText(text);
    expect(config.teams[1]?.budget).toEqual(config.teams[0]?.budget);
    expect(config.teams[1]?.budget?.monthly).toBe(1000);
  });
});

describe('values that are not plain YAML scalars', () => {
  it.each([
    ['!!binary aGVsbG8=', '!!binary'],
    ['!!timestamp 2026-01-01', '!!timestamp'],
    ['!!set { U1, U2 }', '!!set'],
    ['!vault secret/burnrate', '!vault'],
  ])('names %s with its path', (value, tag) => {
    const error = errorOf(() => parseConfigText(`teams:\n  - id: ml\n    owners: [U0]\n    name: ${value}\n`));
    expect(error.code).toBe('burnrate_config_invalid');
    expect(error.message).toContain(
      `teams[0].name: ${tag} values are not supported; write a plain string, number, true/false, list or mapping`,
    );
    expect(error.message).not.toMatch(/toString|valueOf|constructor/);
  });

  it('lists every tagged value at once', () => {
    const error = errorOf(() => parseConfigText('admins: !!set { U1 }\nteams:\n  - id: ml\n    name: !!binary aGk=\n'));
    expect(error.message).toContain('has 2 values burnrate cannot read');
    expect(error.message).toContain('admins: !!set');
    expect(error.message).toContain('teams[0].name: !!binary');
  });

  it('accepts the plain core tags, such as !!str to keep a leading zero', () => {
    expect(parseConfigText('teams:\n  - id: ml\n    name: !!str 0123\n').teams[0]?.name).toBe('0123');
  });
});

describe('numbers that overflow', () => {
  it.each([
    ['1e309', 'teams[0].budget.monthly: 1e309 overflows: numbers go up to about ±1.8e308'],
    ['-1e309', 'teams[0].budget.monthly: -1e309 overflows'],
    ['.inf', 'teams[0].budget.monthly: .inf is infinite; write a finite number'],
    ['-.inf', 'teams[0].budget.monthly: -.inf is infinite'],
    ['.nan', 'teams[0].budget.monthly: .nan is not a number'],
    ['123456789012345678901', 'teams[0].budget.monthly: 123456789012345678901 overflows: whole numbers go up to ±9007199254740991'],
  ])('reports %s as such, with its path', (value, expected) => {
    const error = errorOf(() => parseConfigText(team(`{ monthly: ${value} }`)));
    expect(error.message).toContain(expected);
    expect(error.message).not.toContain('got null');
  });

  it('reports an overflow in a list with its index', () => {
    expect(errorOf(() => parseConfigText(team('{ monthly: 10, thresholds: [50, 1e400] }'))).message).toContain(
      'teams[0].budget.thresholds[1]: 1e400 overflows',
    );
  });

  it('exits 2 from the command line', async () => {
    const result = await validate(team('{ monthly: 1e309 }'));
    expect(result).toMatchObject({ code: 2 });
    expect(result.err).toContain('teams[0].budget.monthly: 1e309 overflows');
  });
});

describe('the nesting scan before parsing', () => {
  it('finds deep nesting without the parser, and passes the shipped example', () => {
    expect(lineNestedTooDeep(`a: 1\nb: ${'['.repeat(65)}${']'.repeat(65)}\n`)).toBe(2);
    expect(lineNestedTooDeep(`a: ${'['.repeat(64)}${']'.repeat(64)}\n`)).toBeUndefined();
    expect(lineNestedTooDeep(`a:\n${' '.repeat(129)}b: 1\n`)).toBe(2);
    expect(lineNestedTooDeep(`a:\n${'- '.repeat(65)}b\n`)).toBe(2);
    expect(lineNestedTooDeep(readFileSync(new URL('../../burnrate.example.yml', import.meta.url), 'utf8'))).toBeUndefined();
  });
});
