import { writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSnoozeDuration } from '../../src/actions/snooze-finding.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { runCli } from '../../src/cli/run-cli.js';
import { loadConfig } from '../support/config.js';
import { BurnrateError } from '../../src/domain/errors.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { buildSources } from '../../src/providers/registry.js';
import { testDeps } from '../support/deps.js';
import { click, command } from '../support/recording-reply.js';
import { cli, workDir, type CliResult } from '../support/run-cli.js';

// Hostile periods, months, dates and durations, typed by anyone who can reach a chat command, the
// command line or burnrate.yml. Each must be refused clearly, at once, without growing memory: a
// month such as 0042-01 once became 1,900 years long, asked the GPU metrics for 200 million
// samples per series and took serve down in 40 s.

const NOW = '2026-11-18T06:00:00Z';
/**
 * The fault took tens of seconds and gigabytes. A refusal is immediate, but the first call of a verb
 * also loads that verb's modules (the CLI loads each verb on first use): a second or more on a loaded
 * machine, so the bound is a few seconds and the heap bound is the sharper guard.
 */
const QUICK_MS = 5_000;
const HEAP_BOUND = 64 * 1024 * 1024;

const YEARS = ['0042-01', '0000-01', '0099-12', '0001-01', '1999-12', '2101-01', '9999-12'];
const NONSENSE = ['0000-00', '2026-13', '-2026-01', '99999-01', '-1', 'NaN', 'Infinity', '-Infinity', '1e400', '1e-400', '0x7e9'];
const MONTHS = [...YEARS, ...NONSENSE];
const PERIODS = [
  ...MONTHS,
  '0042-01-01',
  '9999-12-31',
  '0001-01-01..2026-01-01',
  '2026-01-01..9999-12-31',
  '2000-01-01..2100-12-31',
  '1900-01-01..1900-01-31',
];

/**
 * Runs one hostile input and measures it: it must end (answer, return or throw) within QUICK_MS
 * and grow the heap by less than HEAP_BOUND. Returns what it returned, or what it threw.
 */
async function measured<T>(what: string, run: () => Promise<T> | T): Promise<T | unknown> {
  const heap = process.memoryUsage().heapUsed;
  const started = performance.now();
  let result: T | unknown;
  try {
    result = await run();
  } catch (error) {
    result = error;
  }
  const ms = performance.now() - started;
  const grown = process.memoryUsage().heapUsed - heap;
  expect(ms, `${what} took ${Math.round(ms)} ms`).toBeLessThan(QUICK_MS);
  expect(grown, `${what} grew the heap by ${Math.round(grown / 1024 / 1024)} MiB`).toBeLessThan(HEAP_BOUND);
  return result;
}

/** What a refusal says: the problem and what to write instead, never a figure or a stack. */
const REFUSAL =
  /outside the years|unknown team|must fall in|is not a way to split|argument is ambiguous|is not a month|not a period|unknown period|days long|is not a team|ends before it starts|don't understand|must be|has not (begun|started)|expected/i;

describe('hostile periods, months, dates and durations are refused at once, in bounded memory', () => {
  const t = testDeps(demoConfig(), NOW);

  beforeAll(async () => {
    t.deps.gpu = buildGpuDeps(t.deps.config)!;
    t.deps.sources = buildSources(t.deps.config).spend;
    await refreshSources(t.deps);
  }, 60_000);

  it('chat: spend, top, waste and review, through the dispatcher', async () => {
    // A member of llm-training (the demo's), who may ask for its spend, waste and review.
    const user = 'U0DEMOCAROL';
    const verbs = ['spend', 'spend llm-training by day', 'top', 'waste', 'waste llm-training', 'review', 'review llm-training'];
    let asked = 0;
    for (const verb of verbs)
      for (const value of verb.startsWith('spend') || verb === 'top' ? PERIODS : MONTHS) {
        const interaction = command(user, `${verb} ${value}`);
        await measured(`/burnrate ${verb} ${value}`, () => dispatch(t.deps, interaction));
        const text = interaction.reply.text();
        expect(text, `/burnrate ${verb} ${value}`).toMatch(REFUSAL);
        expect(text).not.toMatch(/unexpected error|RangeError|Invalid time value|\$\d/);
        asked++;
      }
    expect(asked).toBe(3 * PERIODS.length + 4 * MONTHS.length);
    // The same words inside the years are answered, not refused: the bounds are not the fault.
    const fine = command(user, 'spend 2026-10');
    await dispatch(t.deps, fine);
    expect(fine.reply.text()).not.toMatch(REFUSAL);
  });

  it('chat: a snooze duration and a button payload with hostile durations', async () => {
    const finding = { range: { start: '2026-11-01', end: '2026-12-01' } };
    for (const value of ['99999999999999999999d', '1e400h', '0m', '-1d', 'NaNd', 'Infinityw', '32d', '5w', '']) {
      expect(await measured(`snooze ${value}`, () => parseSnoozeDuration(value, finding, new Date(NOW))), value).toBeNull();
    }
    for (const value of ['1e400', '99999999999d', '-1', 'NaN', '']) {
      const interaction = click(
        'U0DEMOCAROL',
        'budget.snooze',
        JSON.stringify({ f: 'budget.forecast:llm-training:2026-11:100', for: value }),
      );
      await measured(`budget.snooze for ${value}`, () => dispatch(t.deps, interaction));
      expect(interaction.reply.text(), value).toMatch(/\/burnrate budget/);
    }
  });

  it('command line: every flag that takes a month, a period, a number of days or a time', async () => {
    const cwd = workDir();
    const runs: string[][] = [
      ...PERIODS.map((p) => ['spend', '--period', p]),
      ...MONTHS.map((m) => ['waste', '--month', m]),
      ...MONTHS.map((m) => ['savings', '--month', m]),
      ...MONTHS.map((m) => ['review', '--month', m, '--dry-run']),
      ...MONTHS.map((m) => ['showback', '--month', m]),
      ...['0', '-1', '93', '99999999999', '1e400', 'NaN', 'Infinity', ''].map((d) => ['waste', '--days', d]),
      ...['0042-01-01', '0000-01-01T00:00:00Z', '9999-12-31', '+275760-09-13T00:00:00Z', 'NaN', '1e400', ''].map((s) => [
        'audit',
        '--since',
        s,
      ]),
      ['spend', '--period', ''],
      ['waste', '--month', ''],
    ];
    for (const args of runs) {
      const result = (await measured(`burnrate ${args.join(' ')}`, () =>
        cli([...args, '--db', join(cwd, 'burnrate.db')], { cwd, now: NOW }),
      )) as CliResult;
      expect(result.code, `burnrate ${args.join(' ')}: ${result.err}`).toBe(2);
      expect(result.err).toMatch(REFUSAL);
      expect(result.err).not.toMatch(/unexpected error|RangeError|Invalid time value/);
      expect(result.out).toBe('');
    }
    // A pinned clock from the environment is a date too (the real CLI's clock: none given, so BURNRATE_NOW is read).
    for (const pinned of ['0042-01-01T00:00:00Z', '9999-12-31T00:00:00Z']) {
      const err = new PassThrough();
      let said = '';
      err.on('data', (c: Buffer) => (said += c.toString()));
      const code = await measured(`BURNRATE_NOW=${pinned}`, () =>
        runCli(['spend', '--db', join(cwd, 'burnrate.db')], {
          out: new PassThrough(),
          err,
          env: { LOG_LEVEL: 'silent', BURNRATE_NOW: pinned },
          cwd,
        }),
      );
      expect(code).toBe(2);
      expect(said).toContain('BURNRATE_NOW must be an ISO time from 2000 to 2100');
    }
  });

  it('burnrate.yml: every duration, every number of minutes, hours or days, and the date of the exchange rates', async () => {
    const durations = ['delivery.retryFor', 'delivery.firstRetryAfter', 'delivery.maxRetryAfter', 'delivery.lease'];
    const numbers = [
      'gpu.lookbackHours',
      'gpu.idle.minIdleMinutes',
      'gpu.idle.maxLagMinutes',
      'gpu.idle.stalled.minMinutes',
      'sweeps.windowHours',
      'recommendations.lookbackDays',
      'recommendations.rightSize.minRunningHours',
      'forecast.lookbackDays',
      'spot.maxCheckpointMinutes',
      'spot.restartMinutes',
      'review.reminderAfterWorkingDays',
      'teams.gpu.autoStopAfterMinutes',
      'sources.days',
    ];
    const badDurations = ['1ms', '0s', '-1s', '99999999999d', '1e400s', 'NaN', 'Infinity', '""', '.inf', '1e400', '.nan', '0042d', '[]'];
    const badNumbers = ['-1', '99999999999', '1e400', '.inf', '-.inf', '.nan', '"NaN"', '"Infinity"', '""', '[]'];
    const cwd = workDir();
    let refused = 0;
    const dates = ['fx.asOf'];
    const badDates = ['0042-01-01', '0000-00-00', '9999-12-31', '1999-12-31', '1e400', 'NaN', '""', '.inf'];
    for (const [keys, values] of [
      [durations, badDurations],
      [numbers, badNumbers],
      [dates, badDates],
    ] as const)
      for (const key of keys)
        for (const value of values) {
          writeFileSync(join(cwd, 'burnrate.yml'), yamlWith(key, value));
          const error = await measured(`${key}: ${value}`, () => loadConfig('burnrate.yml', {}, cwd));
          expect(error, `${key}: ${value}`).toBeInstanceOf(BurnrateError);
          expect((error as BurnrateError).code, `${key}: ${value}`).toBe('burnrate_config_invalid');
          expect((error as BurnrateError).message, `${key}: ${value}`).toContain(
            key.replace(/^teams\./, 'teams[0].').replace(/^sources\./, 'sources[0].'),
          );
          refused++;
        }
    expect(refused).toBe(durations.length * badDurations.length + numbers.length * badNumbers.length + badDates.length);
  });
});

/** A burnrate.yml with one key set (dotted path; `teams.` and `sources.` keys go in the first team or source). */
function yamlWith(key: string, value: string): string {
  const parts = key.split('.');
  if (parts[0] === 'teams') return `teams:\n  - id: a\n${nest(parts.slice(1), value, 4)}`;
  if (parts[0] === 'sources') return `sources:\n  - type: demo\n${nest(parts.slice(1), value, 4)}`;
  return nest(parts, value, 0);
}

function nest(parts: string[], value: string, indent: number): string {
  const pad = ' '.repeat(indent);
  if (parts.length === 1) return `${pad}${parts[0]}: ${value}\n`;
  return `${pad}${parts[0]}:\n${nest(parts.slice(1), value, indent + 2)}`;
}
