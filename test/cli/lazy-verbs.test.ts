import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HELP_PAGES } from '../../src/cli/help-pages.js';
import { packageVersion } from '../../src/config/package-version.js';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));
const RECORDER = fileURLToPath(new URL('../support/record-loaded-modules.mjs', import.meta.url));

/** The packages a verb pulls in and `--version` must not: both chat SDKs and DuckDB. */
const HEAVY = ['/node_modules/@slack/bolt/', '/node_modules/botbuilder/', '/node_modules/@duckdb/'];

/** Runs the built CLI as a user does, and returns what it printed and every module file it loaded. */
function runRecorded(args: string[]): { out: string; loaded: string[] } {
  const record = join(mkdtempSync(join(tmpdir(), 'burnrate-modules-')), 'loaded.txt');
  const out = execFileSync(process.execPath, ['--import', RECORDER, BIN, ...args], {
    cwd: mkdtempSync(join(tmpdir(), 'burnrate-cli-')),
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', RECORD_LOADED_MODULES: record },
    encoding: 'utf8',
  });
  return { out, loaded: [...new Set(readFileSync(record, 'utf8').split('\n').filter(Boolean))] };
}

describe('a verb loads only what it uses', () => {
  it.each([
    [['--version'], `burnrate ${packageVersion()}`],
    [['--help'], 'Usage: burnrate <command>'],
    [['help', 'serve'], HELP_PAGES.serve.usage],
    [['import', '--help'], HELP_PAGES.import.usage],
  ])(
    'burnrate %j answers and loads no chat SDK, no DuckDB and no verb module',
    (args, answer) => {
      expect(existsSync(fileURLToPath(new URL('../../dist/src/main.js', import.meta.url))), 'npm run build first').toBe(true);
      const { out, loaded } = runRecorded(args);
      expect(out).toContain(answer);
      // The recorder sees the CLI's own files, so an empty list cannot pass for a lazy one.
      expect(loaded.some((path) => path.endsWith('/dist/src/cli/run-cli.js'))).toBe(true);
      expect(loaded.filter((path) => HEAVY.some((dir) => path.includes(dir)))).toEqual([]);
      expect(loaded.filter((path) => path.includes('/node_modules/'))).toEqual([]);
      expect(loaded.filter((path) => /\/dist\/src\/cli\/(serve|spend|import|check)\.js$/.test(path))).toEqual([]);
    },
    30_000,
  );
});
