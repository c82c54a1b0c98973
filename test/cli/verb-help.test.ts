import { describe, expect, it } from 'vitest';
import { cli } from '../support/run-cli.js';

/** Every verb burnrate documents, written out here rather than read from the CLI it tests. */
const VERBS = [
  'serve',
  'check',
  'spend',
  'budgets',
  'idle',
  'recommend',
  'waste',
  'savings',
  'review',
  'showback',
  'audit',
  'status',
  'outbox',
  'import',
  'config',
  'prices',
  'demo',
];

describe('burnrate <verb> --help', () => {
  it.each(VERBS)('%s answers --help, -h and help %s with its usage, options and an example, exit 0', async (verb) => {
    const pages = [await cli([verb, '--help']), await cli([verb, '-h']), await cli(['help', verb])];
    for (const page of pages) {
      expect(page.code).toBe(0);
      expect(page.err).toBe('');
      expect(page.out).toMatch(new RegExp(`^Usage: burnrate ${verb}\\b`, 'm'));
      expect(page.out).toMatch(/^Options:\n {2}-/m);
      expect(page.out).toMatch(/^Examples?:\n {2}burnrate /m);
      expect(page.out).toContain('--help');
    }
    expect(pages[1]!.out).toBe(pages[0]!.out);
    expect(pages[2]!.out).toBe(pages[0]!.out);
  });

  it('answers --help among other options, even invalid ones, without running the verb', async () => {
    const help = await cli(['spend', '--by', 'nonsense', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: burnrate spend');
    // No database was opened: the verb never ran.
    expect(help.err).toBe('');
  });

  it('prints the same usage line in a usage error as in --help', async () => {
    const usage = /^Usage: (.*)$/m.exec((await cli(['spend', '--help'])).out)![1]!;
    const wrong = await cli(['spend', '--by', 'nonsense']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain(`Usage: ${usage}`);
  });

  it.each(VERBS)('%s refuses an unknown option with the usage line its --help prints', async (verb) => {
    const usage = /^Usage: (.*)$/m.exec((await cli([verb, '--help'])).out)![1]!;
    const wrong = await cli([verb, '--no-such-option']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain(`Usage: ${usage}`);
  });

  it('takes -h after -- as an argument, not as a request for help', async () => {
    const result = await cli(['config', 'validate', '--', '-h']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('unexpected argument "-h"');
  });

  it('refuses help for a verb that does not exist, with the nearest one', async () => {
    const result = await cli(['help', 'spnd']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('unknown command "spnd" (did you mean "spend"?)');
  });

  it('names --help and every verb, with its one line, in the overview', async () => {
    const overview = (await cli(['--help'])).out;
    expect(overview).toContain('burnrate <command> --help');
    for (const verb of VERBS) {
      const summary = (await cli([verb, '--help'])).out.split('\n')[0]!;
      expect(overview).toMatch(new RegExp(`^  ${verb} +${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    }
  });
});
