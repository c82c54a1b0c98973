import { auditVerb } from './audit.js';
import { budgetsVerb } from './budgets.js';
import { checkVerb } from './check.js';
import { configVerb } from './config.js';
import { demoVerb } from './demo.js';
import { idleVerb } from './idle.js';
import { importVerb } from './import.js';
import { outboxVerb } from './outbox.js';
import { recommendVerb } from './recommend.js';
import type { CliIo, Verb } from './io.js';
import { formatHelpPage, HELP_PAGES, type VerbName } from './help-pages.js';
import { pricesVerb } from './prices.js';
import { reviewVerb } from './review.js';
import { serveVerb } from './serve.js';
import { showbackVerb } from './showback.js';
import { spendVerb } from './spend.js';
import { statusVerb } from './status.js';
import { wasteVerb } from './waste.js';
import { savingsVerb } from './savings.js';
import { packageVersion } from '../config/package-version.js';
import { closest } from '../domain/closest.js';
import { BurnrateError, isBurnrateError } from '../domain/errors.js';
import { FIRST_YEAR, isInstantWithinYears, LAST_YEAR } from '../domain/calendar-range.js';

/** Every verb; typed by the help pages, so a verb without a --help page does not compile. */
const VERBS: Record<VerbName, Verb> = {
  serve: serveVerb,
  check: checkVerb,
  spend: spendVerb,
  budgets: budgetsVerb,
  idle: idleVerb,
  recommend: recommendVerb,
  waste: wasteVerb,
  savings: savingsVerb,
  review: reviewVerb,
  showback: showbackVerb,
  audit: auditVerb,
  status: statusVerb,
  outbox: outboxVerb,
  import: importVerb,
  config: configVerb,
  prices: pricesVerb,
  demo: demoVerb,
};

const HELP = `burnrate — cloud and GPU spend alerts for ML teams, in Slack and Teams

Usage: burnrate <command> [options]    (burnrate --version: the version)
       burnrate <command> --help         (or burnrate help <command>: its options and an example)

  serve                      run the bot: checks on a schedule, alerts, health endpoints
  check [--dry-run] [--json] run the budget checks now
  spend [--team T] [--period P] [--by team|service|resource|day|provider|namespace|workload] [--json]
  budgets [--source aws|gcp|config] [--team T] [--json]
                             budgets of burnrate.yml, AWS Budgets and Google Cloud, with spend
  idle [--team T] [--json]   idle GPU instances now, with idle time and cost
  recommend [--team T] [--json] right-size and spot recommendations, with evidence and savings
  waste [--team T] [--month YYYY-MM | --days N] [--json]
                             how much of each team's GPU spend is waste, by cause, and what to do first
  savings [--month YYYY-MM] [--json]
                             what actions taken through burnrate saved, as the bill confirms
  review [--team T] [--month YYYY-MM] [--json] [--chart-dir DIR]
                             the monthly cost review: summary, chart and top cost lines per team
  showback [--month YYYY-MM] [--format csv|json]
                             each team's spend with its share of untagged spend
  audit [--since ISO] [--json] the audit log of actions taken from chat
  status [--json]            alert delivery (queued, failing, failed) and each source's freshness
  outbox retry [--id N ...] [--json]
                             queue failed alerts again once their cause is fixed
  import focus <file...>     import FOCUS billing exports (CSV, CSV.gz, Parquet)
  config validate|schema     check burnrate.yml, or print its JSON Schema
  prices refresh --provider gcp [--catalog FILE] [--dry-run]
                             reprice Google Cloud GPU machines from the Cloud Catalog
  demo                       load the demo organisation and show its alerts

Options for all data commands: --config FILE (or BURNRATE_CONFIG), --db FILE (or BURNRATE_DB)
Exit codes: 0 ok, 1 runtime failure, 2 usage or input error.
`;

/** Runs one CLI invocation and returns its exit code; never exits the process itself. */
export async function runCli(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const [name, ...args] = argv;
  if (name === 'help' && args[0] !== undefined) return helpOf(args[0], io);
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out.write(HELP);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out.write(`burnrate ${packageVersion()}\n`);
    return 0;
  }
  if (!isVerb(name)) return unknownCommand(name, io);
  if (asksForHelp(args)) return helpOf(name, io);
  const verb = VERBS[name];
  try {
    return await verb(args, withPinnedClock(io));
  } catch (error) {
    if (isBurnrateError(error)) {
      io.err.write(`burnrate: ${error.describe()}\n`);
      return error.exitCode;
    }
    io.err.write(`burnrate: unexpected error: ${(error as Error).message}\n`);
    if (io.env.LOG_LEVEL === 'debug') io.err.write(`${(error as Error).stack}\n`);
    return 1;
  }
}

function isVerb(name: string): name is VerbName {
  return Object.hasOwn(VERBS, name);
}

function unknownCommand(name: string, io: CliIo): number {
  const suggestion = closest(name, Object.keys(VERBS));
  io.err.write(`burnrate: unknown command "${name}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}\n\n${HELP}`);
  return 2;
}

/** -h or --help anywhere before a `--` (after it, arguments are taken as they are, as file names say). */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** The verb's help page on stdout, exit 0: help asked for is not an error. */
function helpOf(name: string, io: CliIo): number {
  if (!isVerb(name)) return unknownCommand(name, io);
  io.out.write(formatHelpPage(HELP_PAGES[name]));
  return 0;
}

/**
 * BURNRATE_NOW=<ISO time> starts the clock at that time (it runs on from there): demos and tests
 * of `serve` show a chosen moment of the demo organisation. A clock already given wins.
 */
function withPinnedClock(io: CliIo): CliIo {
  const pinned = io.env.BURNRATE_NOW;
  if (io.clock || !pinned) return io;
  const start = Date.parse(pinned);
  if (Number.isNaN(start) || !isInstantWithinYears(new Date(start)))
    throw new BurnrateError(
      'burnrate_usage',
      `BURNRATE_NOW must be an ISO time from ${FIRST_YEAR} to ${LAST_YEAR} such as 2026-11-18T06:00:00Z, got "${pinned}"`,
      'Unset it to use the real time.',
      2,
    );
  const offset = start - Date.now();
  return { ...io, clock: () => new Date(Date.now() + offset) };
}

function defaultIo(): CliIo {
  return { out: process.stdout, err: process.stderr, env: process.env, cwd: process.cwd() };
}
