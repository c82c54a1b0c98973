import { renderPlainText } from '../../templates/render/plain-text.js';
import { budgetListMessage } from '../../templates/budget-list.js';
import { resolveTeamId } from '../../commands/team-arg.js';
import type { BudgetOrigin } from '../domain/cloud-budget.js';
import { listBudgets } from '../snapshots/budget-listing.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, oneOf, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { jsonText } from '../domain/json-text.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.budgets.usage;
const ORIGINS: BudgetOrigin[] = ['aws', 'gcp', 'config'];

/** Lists burnrate's budgets and those read from AWS Budgets and Google Cloud, as last refreshed (no API call). */
export const budgetsVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(
    args,
    { ...COMMON_OPTIONS, source: { type: 'string' }, team: { type: 'string' }, json: { type: 'boolean' } },
    USAGE,
  );
  const origin = oneOf(values.source, ORIGINS, 'source', USAGE);
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const { deps } = runtime;
    const teams = values.team ? [resolveTeamId(deps.config, values.team)] : undefined;
    const listing = await listBudgets(deps, deps.clock(), { ...(teams ? { teams } : {}), ...(origin ? { origins: [origin] } : {}) });
    if (values.json) {
      const stale = listing.stale.map((s) => ({ source: s.source, ageHours: s.ageHours, error: s.error }));
      io.out.write(`${jsonText({ budgets: listing.budgets, dataThrough: listing.dataThrough, stale })}\n`);
    } else io.out.write(`${renderPlainText(budgetListMessage(listing))}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};
