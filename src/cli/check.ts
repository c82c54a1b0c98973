import { renderPlainText } from '../../templates/render/plain-text.js';
import { budgetAlert } from '../../templates/budget-alert.js';
import { runBudgetCheck } from '../jobs/budget-check.js';
import { runtimeOf } from './runtime-of.js';
import { describeHold } from '../domain/check-hold.js';
import { jsonText } from '../domain/json-text.js';
import { COMMON_OPTIONS, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { resolveTeamId } from '../../commands/team-arg.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.check.usage;

/** Runs the budget checks now; prints findings (or JSON) and records them unless --dry-run. */
export const checkVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(
    args,
    { ...COMMON_OPTIONS, team: { type: 'string' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } },
    USAGE,
  );
  const runtime = await runtimeOf(values, io);
  try {
    const { config } = runtime.deps;
    const teams = values.team ? [resolveTeamId(config, values.team)] : undefined;
    const result = await runBudgetCheck(runtime.deps, { dryRun: values['dry-run'] ?? false, ...(teams ? { teams } : {}) });
    if (values.json) {
      const held = {
        teams: result.heldTeams,
        sources: result.held.map((s) => ({ source: s.source, ageHours: s.ageHours, error: s.error })),
        // Per team: why it is held and what to write or fix.
        why: result.holds,
      };
      io.out.write(
        `${jsonText({ dryRun: values['dry-run'] ?? false, findings: result.findings, ...(held.teams.length > 0 ? { held } : {}) })}\n`,
      );
      return 0;
    }
    if (result.holds.length > 0) {
      io.out.write(`Budget checks held for ${result.heldTeams.join(', ')}:\n`);
      for (const line of result.holds.flatMap(describeHold)) io.out.write(`  ${line}\n`);
    }
    if (result.alerts.length === 0) io.out.write(`No new budget alerts (${result.findings.length} open findings).\n`);
    for (const alert of result.alerts) {
      const team = config.teams.find((t) => t.id === alert.finding.team);
      io.out.write(`\n${renderPlainText(budgetAlert({ ...alert, teamName: team?.name ?? alert.finding.team }))}\n`);
    }
    if (values['dry-run']) io.out.write('\n(dry run: nothing recorded, no alert queued)\n');
    return 0;
  } finally {
    await runtime.close();
  }
};
