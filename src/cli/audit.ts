import { FIRST_YEAR, isInstantWithinYears, LAST_YEAR } from '../domain/calendar-range.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import type { Verb } from './io.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.audit.usage;
const LIMIT = 10_000;

/** The audit log (every action taken from chat), oldest first. */
export const auditVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, since: { type: 'string' }, json: { type: 'boolean' } }, USAGE);
  const since = values.since === undefined ? null : new Date(values.since);
  if (since && Number.isNaN(since.getTime())) throw usageError(`--since must be an ISO date or time, got "${values.since}"`, USAGE);
  if (since && !isInstantWithinYears(since))
    throw usageError(`--since must fall in the years ${FIRST_YEAR} to ${LAST_YEAR}, got "${values.since}"`, USAGE);
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const entries = (await runtime.deps.store.audit.list(LIMIT)).filter((e) => !since || e.at >= since).reverse();
    if (values.json) {
      io.out.write(
        `${JSON.stringify(
          entries.map((e) => ({ ...e, at: e.at.toISOString() })),
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    if (entries.length === 0) io.out.write('The audit log is empty.\n');
    for (const e of entries)
      io.out.write(
        `${e.at.toISOString()}  ${e.platform}:${e.userId}  ${e.action}  ${e.subject}  ${e.result}${e.detail ? `  ${e.detail}` : ''}\n`,
      );
    return 0;
  } finally {
    await runtime.close();
  }
};
