import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP_PAGES } from '../../src/cli/help-pages.js';

const page = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

describe('docs/cli.md', () => {
  it('lists every command with the usage line and summary its --help prints', () => {
    for (const [verb, help] of Object.entries(HELP_PAGES)) {
      const usage = help.usage.replace(/^burnrate /, '').replace(/\|/g, '\\|');
      expect(page, verb).toContain(`| \`${usage}\` | ${help.summary} |`);
    }
  });
});
