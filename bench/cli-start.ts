// CLI cold start: whole processes of the built CLI as a user runs them, beside their floors in one
// run: `node -e 0` for --version and --help, and for the read verbs one process that opens the same
// SQLite file with better-sqlite3 and runs the spend-by-team query itself. Runs alternate (every
// command once per round, the order rotating), so a machine busy with other work slows all alike;
// medians of the rounds. Peak RSS is each process's own (process.resourceUsage at exit). `spend` and
// `budgets` run twice: on the embedded demo organisation, and in a project with burnrate.yml (the
// shipped example with the demo source), whose validation the warm-up round keeps beside the database.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { median } from './stats.js';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('./peak-rss-on-exit.js', import.meta.url));
const DIRECT_QUERY = fileURLToPath(new URL('./spend-direct-query.js', import.meta.url));
const EXAMPLE_CONFIG = new URL('../../burnrate.example.yml', import.meta.url);

export interface StartSample {
  ms: number;
  peakRssMb: number;
}

export interface CliStartRow {
  name: string;
  /** What it is compared with: `node -e 0` or the direct query. */
  floor: 'node' | 'query';
  ms: number;
  peakRssMb: number;
  /** ms ÷ the floor's ms (medians). */
  ratio: number;
}

export interface CliStartBench {
  rounds: number;
  node: StartSample;
  query: StartSample;
  rows: CliStartRow[];
}

const COMMANDS: { name: string; args: (db: string) => string[]; floor: 'node' | 'query'; configured?: true }[] = [
  { name: '--version', args: () => ['--version'], floor: 'node' },
  { name: '--help', args: () => ['--help'], floor: 'node' },
  { name: 'spend --by team', args: (db) => ['spend', '--by', 'team', '--db', db], floor: 'query' },
  { name: 'budgets', args: (db) => ['budgets', '--db', db], floor: 'query' },
  { name: 'idle', args: (db) => ['idle', '--db', db], floor: 'query' },
  { name: 'spend, burnrate.yml', args: (db) => ['spend', '--by', 'team', '--db', db], floor: 'query', configured: true },
  { name: 'budgets, burnrate.yml', args: (db) => ['budgets', '--db', db], floor: 'query', configured: true },
];

export async function benchCliStart(opts: { rounds: number }): Promise<CliStartBench> {
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-bench-cli-'));
  const db = join(dir, 'demo.db');
  // The embedded demo organisation's bill in a local database, as `burnrate demo` leaves it.
  await run(process.execPath, [BIN, 'demo', '--db', db], { cwd: dir, env: quietEnv(), maxBuffer: 16 * 1024 * 1024 });

  const project = configuredProject(dir);

  const runs: { key: string; argv: string[]; cwd: string }[] = [
    { key: 'node', argv: ['-e', '0'], cwd: dir },
    { key: 'query', argv: [DIRECT_QUERY, db], cwd: dir },
    ...COMMANDS.map((c) => ({ key: c.name, argv: [BIN, ...c.args(db)], cwd: c.configured ? project : dir })),
  ];
  const samples = new Map<string, StartSample[]>(runs.map((r) => [r.key, []]));
  // One warm-up round (disk cache), then the measured rounds, each starting one command later.
  for (let round = -1; round < opts.rounds; round++)
    for (let i = 0; i < runs.length; i++) {
      const one = runs[(i + Math.max(round, 0)) % runs.length]!;
      const sample = await timeProcess(one.argv, one.cwd);
      if (round >= 0) samples.get(one.key)!.push(sample);
    }

  const summary = (key: string): StartSample => ({
    ms: Math.round(median(samples.get(key)!.map((s) => s.ms))),
    peakRssMb: Math.round(median(samples.get(key)!.map((s) => s.peakRssMb))),
  });
  const node = summary('node');
  const query = summary('query');
  return {
    rounds: opts.rounds,
    node,
    query,
    rows: COMMANDS.map((c) => {
      const s = summary(c.name);
      const floor = c.floor === 'node' ? node : query;
      return { name: c.name, floor: c.floor, ...s, ratio: Math.round((s.ms / floor.ms) * 100) / 100 };
    }),
  };
}

/** A project folder whose burnrate.yml is the shipped example reading the demo organisation's bill too. */
function configuredProject(dir: string): string {
  const example = readFileSync(EXAMPLE_CONFIG, 'utf8');
  if (!/^sources:$/m.test(example)) throw new Error('burnrate.example.yml has no sources: line to add the demo source under');
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'burnrate.yml'), example.replace(/^sources:$/m, 'sources:\n  - { type: demo }'));
  return project;
}

/** Wall time from spawn to exit, and the peak RSS the process reported as it exited. */
async function timeProcess(argv: string[], cwd: string): Promise<StartSample> {
  const rssFile = join(mkdtempSync(join(tmpdir(), 'burnrate-bench-rss-')), 'rss');
  const started = performance.now();
  await run(process.execPath, ['--import', PEAK_RSS, ...argv], {
    cwd,
    env: { ...quietEnv(), PEAK_RSS_FILE: rssFile },
    maxBuffer: 16 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  return { ms, peakRssMb: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}

/** No chat platform, cloud or Postgres configured: what a person at a terminal with a local database has. */
function quietEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', TZ: 'UTC' };
}

export function printCliStart(bench: CliStartBench): void {
  console.log(
    `\nCLI cold start, whole processes alternating in one run, median of ${bench.rounds} rounds (floors: node -e 0 ${bench.node.ms} ms, ${bench.node.peakRssMb} MB; the spend query with better-sqlite3 ${bench.query.ms} ms, ${bench.query.peakRssMb} MB):`,
  );
  console.log(`  command                     median   peak RSS   vs floor`);
  for (const r of bench.rows) {
    const target = r.floor === 'node' ? 'target ≤ 1.5× node -e 0' : 'target ≤ 2× the query or ≤ 300 ms, ≤ 80 MB';
    console.log(
      `  ${r.name.padEnd(24)}${`${r.ms} ms`.padStart(10)}${`${r.peakRssMb} MB`.padStart(11)}   ${`${r.ratio}×`.padStart(6)} (${target})`,
    );
  }
}
