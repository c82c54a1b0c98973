import type { CliIo, Verb } from './io.js';
import { formatHelpPage, formatOverview, HELP_PAGES, type VerbName } from './help-pages.js';
import { packageVersion } from '../config/package-version.js';
import { closest } from '../domain/closest.js';
import { BurnrateError, isBurnrateError } from '../domain/errors.js';
import { FIRST_YEAR, isInstantWithinYears, LAST_YEAR } from '../domain/calendar-range.js';

/**
 * Every verb, loaded only when it runs: a verb's module pulls in what it uses (serve: both chat
 * platforms and the metrics server; import: DuckDB), so `--version`, `--help` and `help <verb>`
 * load none of them and one verb loads no other verb's. Typed by the help pages, so a verb without
 * a --help page does not compile.
 */
const VERBS: Record<VerbName, () => Promise<Verb>> = {
  serve: async () => (await import('./serve.js')).serveVerb,
  check: async () => (await import('./check.js')).checkVerb,
  spend: async () => (await import('./spend.js')).spendVerb,
  budgets: async () => (await import('./budgets.js')).budgetsVerb,
  idle: async () => (await import('./idle.js')).idleVerb,
  recommend: async () => (await import('./recommend.js')).recommendVerb,
  waste: async () => (await import('./waste.js')).wasteVerb,
  anomalies: async () => (await import('./anomalies.js')).anomaliesVerb,
  savings: async () => (await import('./savings.js')).savingsVerb,
  review: async () => (await import('./review.js')).reviewVerb,
  showback: async () => (await import('./showback.js')).showbackVerb,
  audit: async () => (await import('./audit.js')).auditVerb,
  status: async () => (await import('./status.js')).statusVerb,
  outbox: async () => (await import('./outbox.js')).outboxVerb,
  import: async () => (await import('./import.js')).importVerb,
  config: async () => (await import('./config.js')).configVerb,
  prices: async () => (await import('./prices.js')).pricesVerb,
  mcp: async () => (await import('./mcp.js')).mcpVerb,
  demo: async () => (await import('./demo.js')).demoVerb,
};

const HELP = formatOverview();

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
  try {
    const verb = await VERBS[name]();
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
  return { out: endQuietlyOnClosedPipe(process.stdout), err: process.stderr, env: process.env, cwd: process.cwd() };
}

/**
 * A reader that stops early (`burnrate spend | head -3`) closes the pipe: the command ends there,
 * quietly and with exit 0, as other command-line tools do, instead of a stack trace for EPIPE.
 */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (stream.listenerCount('error') > 0) return stream;
  return stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}
