import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HELP_PAGES } from '../../src/cli/help-pages.js';
import { packageVersion } from '../../src/config/package-version.js';
import { VALIDATED_CONFIG_FILE } from '../../src/config/validated-config-cache.js';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));
const RECORDER = fileURLToPath(new URL('../support/record-loaded-modules.mjs', import.meta.url));

/** The packages a verb pulls in and `--version` must not: both chat SDKs and DuckDB. */
const HEAVY = ['/node_modules/@slack/bolt/', '/node_modules/@microsoft/agents-hosting/', '/node_modules/@duckdb/'];

/**
 * Every package a verb that reads the local store must leave unloaded: the chat platforms' SDKs,
 * DuckDB, Postgres' driver, the clouds' and Kubernetes' clients, the chart renderer, /metrics and the
 * logger's library (nothing is written at LOG_LEVEL=silent).
 */
const SDKS = [
  ...HEAVY,
  '/node_modules/@slack/',
  '/node_modules/@microsoft/',
  '/node_modules/pg/',
  '/node_modules/@aws-sdk/',
  '/node_modules/@google-cloud/',
  '/node_modules/@azure/',
  '/node_modules/@kubernetes/',
  '/node_modules/vega/',
  '/node_modules/vega-lite/',
  '/node_modules/@resvg/',
  '/node_modules/prom-client/',
  '/node_modules/pino/',
];

/**
 * A project whose burnrate.yml reads a FOCUS export and AWS (DuckDB and the AWS SDK on a pull) beside
 * the demo organisation (its GPU fleet for idle), in an environment that configures Slack and Teams:
 * everything a read verb could load and must not.
 */
const CONFIGURED_PROJECT = {
  config: `teams:
  - { id: ml-research, slack: { channel: C0123ABCD } }
sources:
  - { type: demo }
  - { type: focus, paths: [exports/*.csv] }
  - { type: aws }
`,
  env: {
    SLACK_BOT_TOKEN: 'xoxb-0000-0000-lazy',
    SLACK_SIGNING_SECRET: 'lazy-verbs-test-signing-secret',
    MICROSOFT_APP_ID: '00000000-0000-0000-0000-000000000000',
    MICROSOFT_APP_PASSWORD: 'lazy-verbs-test-password',
  },
};

/** Runs the built CLI as a user does, and returns what it printed and every module file it loaded. */
function runRecorded(
  args: string[],
  project?: { config: string; env: Record<string, string> },
  cwd = mkdtempSync(join(tmpdir(), 'burnrate-cli-')),
): { out: string; loaded: string[] } {
  const record = join(mkdtempSync(join(tmpdir(), 'burnrate-modules-')), 'loaded.txt');
  if (project) writeFileSync(join(cwd, 'burnrate.yml'), project.config);
  const out = execFileSync(process.execPath, ['--import', RECORDER, BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', RECORD_LOADED_MODULES: record, ...project?.env },
    encoding: 'utf8',
  });
  return { out, loaded: [...new Set(readFileSync(record, 'utf8').split('\n').filter(Boolean))] };
}

const BUILT = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

describe('a verb loads only what it uses', () => {
  it.each([
    [['--version'], `burnrate ${packageVersion()}`],
    [['--help'], 'Usage: burnrate <command>'],
    [['help', 'serve'], HELP_PAGES.serve.usage],
    [['import', '--help'], HELP_PAGES.import.usage],
  ])(
    'burnrate %j answers and loads no chat SDK, no DuckDB and no verb module',
    (args, answer) => {
      expect(existsSync(BUILT), 'npm run build first').toBe(true);
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

  it.each([
    [['spend', '--by', 'team'], 'Spend of all teams'],
    [['budgets'], 'No budgets'],
    [['idle'], 'Idle GPUs of all teams'],
    [['spend', '--json'], '"total"'],
  ])(
    'burnrate %j reads the local store and loads no chat SDK, DuckDB, Postgres driver, cloud SDK or chart renderer',
    (args, answer) => {
      expect(existsSync(BUILT), 'npm run build first').toBe(true);
      const { out, loaded } = runRecorded(args, CONFIGURED_PROJECT);
      expect(out).toContain(answer);
      // The verb itself and the store ran: the list is the real one.
      expect(loaded.some((path) => path.endsWith(`/dist/src/cli/${args[0]}.js`))).toBe(true);
      expect(loaded.some((path) => path.includes('/node_modules/better-sqlite3/'))).toBe(true);
      expect(loaded.filter((path) => SDKS.some((dir) => path.includes(dir)))).toEqual([]);
    },
    30_000,
  );

  it.each([
    [['spend', '--by', 'team'], 'Spend of all teams'],
    [['budgets'], 'No budgets'],
    [['idle'], 'Idle GPUs of all teams'],
  ])(
    'burnrate %j on the embedded demo organisation (no burnrate.yml) loads no YAML parser and no zod',
    (args, answer) => {
      expect(existsSync(BUILT), 'npm run build first').toBe(true);
      const { out, loaded } = runRecorded(args);
      expect(out).toContain(answer);
      expect(loaded.some((path) => path.endsWith(`/dist/src/cli/${args[0]}.js`))).toBe(true);
      expect(loaded.filter((path) => path.includes('/node_modules/yaml/'))).toEqual([]);
      expect(loaded.filter((path) => path.includes('/node_modules/zod/'))).toEqual([]);
    },
    30_000,
  );
});

describe('a read verb with a burnrate.yml validated before', () => {
  const loadsSchema = (loaded: string[]) => ({
    yaml: loaded.some((path) => path.includes('/node_modules/yaml/')),
    zod: loaded.some((path) => path.includes('/node_modules/zod/')),
  });

  it('validates the file once, keeps it beside the database, and later runs load no YAML parser and no zod until the file or the entry changes', () => {
    expect(existsSync(BUILT), 'npm run build first').toBe(true);
    const cwd = mkdtempSync(join(tmpdir(), 'burnrate-cli-'));
    // The database's folder, as any earlier command leaves it (the first creates it).
    mkdirSync(join(cwd, 'data'));
    const entry = join(cwd, 'data', VALIDATED_CONFIG_FILE);
    const spend = (project = CONFIGURED_PROJECT) => runRecorded(['spend', '--by', 'team'], project, cwd);

    const first = spend();
    expect(first.out).toContain('Spend of all teams');
    expect(loadsSchema(first.loaded)).toEqual({ yaml: true, zod: true });
    const kept = readFileSync(entry, 'utf8');

    const second = spend();
    expect(second.out).toBe(first.out);
    expect(loadsSchema(second.loaded)).toEqual({ yaml: false, zod: false });

    // A changed file (one comment more) is validated again, and its entry replaces the old one.
    const changed = spend({ ...CONFIGURED_PROJECT, config: `${CONFIGURED_PROJECT.config}# reviewed\n` });
    expect(changed.out).toBe(first.out);
    expect(loadsSchema(changed.loaded)).toEqual({ yaml: true, zod: true });
    expect(readFileSync(entry, 'utf8')).not.toBe(kept);

    // A corrupt entry is ignored: the file is validated again and a good entry written.
    writeFileSync(entry, '{"key": "');
    const afterCorrupt = spend();
    expect(afterCorrupt.out).toBe(first.out);
    expect(loadsSchema(afterCorrupt.loaded)).toEqual({ yaml: true, zod: true });
    expect(readFileSync(entry, 'utf8')).toBe(kept);
    // (A new burnrate version or build validates again too: test/config/validated-config-cache.test.ts.)
  }, 60_000);

  it('refuses an invalid burnrate.yml with the same message on every run, a valid one having been kept before', () => {
    expect(existsSync(BUILT), 'npm run build first').toBe(true);
    const cwd = mkdtempSync(join(tmpdir(), 'burnrate-cli-'));
    mkdirSync(join(cwd, 'data'));
    runRecorded(['spend', '--by', 'team'], CONFIGURED_PROJECT, cwd);
    writeFileSync(join(cwd, 'burnrate.yml'), CONFIGURED_PROJECT.config.replace('ml-research', 'ML Research'));
    const refusal = () => {
      try {
        execFileSync(process.execPath, [BIN, 'spend', '--by', 'team'], {
          cwd,
          env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...CONFIGURED_PROJECT.env },
          encoding: 'utf8',
          stdio: 'pipe',
        });
      } catch (error) {
        return { status: (error as { status: number }).status, stderr: (error as { stderr: string }).stderr };
      }
      throw new Error('expected the invalid burnrate.yml to be refused');
    };
    const first = refusal();
    expect(first.status).toBe(2);
    expect(first.stderr).toContain('burnrate.yml has an error');
    expect(first.stderr).toContain('teams[0].id: expected a lower-case id');
    expect(refusal()).toEqual(first);
    expect(refusal()).toEqual(first);
  }, 60_000);
});
