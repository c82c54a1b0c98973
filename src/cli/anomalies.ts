import { resolveTeamId } from '../../commands/team-arg.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { anomalyList } from '../../templates/anomaly-list.js';
import { jsonText } from '../domain/json-text.js';
import { DEFAULT_ANOMALY_DAYS, loadAnomalyListing, MAX_ANOMALY_DAYS } from '../snapshots/anomaly-listing.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import { HELP_PAGES } from './help-pages.js';
import type { Verb } from './io.js';
import { runtimeOf } from './runtime-of.js';

const USAGE = HELP_PAGES.anomalies.usage;

/** The spend anomalies the check recorded in the last days, with why each moved and how it was answered; changes nothing. */
export const anomaliesVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(
    args,
    { ...COMMON_OPTIONS, team: { type: 'string' }, days: { type: 'string' }, json: { type: 'boolean' } },
    USAGE,
  );
  const days = values.days === undefined ? DEFAULT_ANOMALY_DAYS : Number(values.days);
  if (values.days !== undefined && (!/^\d+$/.test(values.days) || days < 1 || days > MAX_ANOMALY_DAYS))
    throw usageError(`--days must be a whole number from 1 to ${MAX_ANOMALY_DAYS}, got "${values.days}"`, USAGE);
  const now = (io.clock ?? (() => new Date()))();
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const { deps } = runtime;
    const team = values.team ? resolveTeamId(deps.config, values.team) : null;
    const listing = await loadAnomalyListing(deps, { teams: team ? [team] : null, days, now });
    if (values.json) io.out.write(`${jsonText(listing)}\n`);
    else io.out.write(`${renderPlainText(anomalyList({ scope: team ?? 'every team', days, anomalies: listing.anomalies }))}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};
