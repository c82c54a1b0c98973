import { resolveTeamId } from '../../commands/team-arg.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { wasteReport } from '../../templates/waste-report.js';
import { toDay } from '../domain/period.js';
import { refreshSources } from '../jobs/refresh-sources.js';
import { commitmentsOf, loadWasteDiagnosis, wastePeriod, wasteRows } from '../snapshots/waste-snapshot.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import type { Verb } from './io.js';
import { runtimeOf } from './runtime-of.js';
import { jsonText } from '../domain/json-text.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.waste.usage;

/** The read-only waste diagnosis: how much of each team's GPU spend is waste, by cause, and what to do first. */
export const wasteVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(
    args,
    { ...COMMON_OPTIONS, team: { type: 'string' }, month: { type: 'string' }, days: { type: 'string' }, json: { type: 'boolean' } },
    USAGE,
  );
  const days = values.days === undefined ? undefined : Number(values.days);
  if (days !== undefined && !/^\d+$/.test(values.days!)) throw usageError(`--days must be a whole number, got "${values.days}"`, USAGE);
  // The period is checked before anything is opened: a bad one is refused at once, as for the other verbs.
  const now = (io.clock ?? (() => new Date()))();
  const period = wastePeriod({ month: values.month, days }, toDay(now));
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const { deps } = runtime;
    if (await deps.store.isEmpty()) await refreshSources(deps);
    const team = values.team ? resolveTeamId(deps.config, values.team) : undefined;
    const diagnosis = await loadWasteDiagnosis(deps, period);
    if (values.json) {
      const shown = team ? { ...diagnosis, teams: diagnosis.teams.filter((t) => t.team === team) } : diagnosis;
      io.out.write(`${jsonText(shown)}\n`);
      return 0;
    }
    const rows = wasteRows(diagnosis, team ? [team] : null);
    const commitments = team ? commitmentsOf(diagnosis.commitments, [team]) : diagnosis.commitments;
    io.out.write(`${renderPlainText(wasteReport({ diagnosis, rows, commitments, dryRun: !deps.config.actions.enabled }))}\n`);
    for (const a of commitments.alwaysOn) io.out.write(`\n${a.name ?? a.instanceId} (always on, ${a.team}): ${a.advice}\n`);
    for (const row of rows)
      for (const c of row.categories.filter((x) => x.monthly > 0))
        io.out.write(`\n${row.teamName}, ${c.label}:\n${c.evidence.map((e) => `  - ${e}`).join('\n')}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};
