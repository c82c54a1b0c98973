import { budgetListMessage } from '../../../templates/budget-list.js';
import { listBudgets } from '../../snapshots/budget-listing.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, defineTool, teamArg, textOf } from './tool.js';

export const budgetsTool = defineTool({
  name: 'budgets',
  title: 'Budgets and forecast',
  description:
    "Each team's budget this period: spent so far, status, and the month-end forecast with its range and method; AWS and Google Cloud budgets as last read. The figures `burnrate budgets --json` gives.",
  input: { team: teamArg },
  output: {
    budgets: 'one line per budget: team, origin, amount, spent, status, forecast (value, range, method)',
    dataThrough: 'end of the data the figures rest on (exclusive)',
    stale: 'sources whose data is old, with how old and why',
  },
  async run(caller, args) {
    const { teams } = askedScope(caller, args.team);
    const listing = await listBudgets(caller.deps, caller.now, { teams });
    const stale = listing.stale.map((s) => ({ source: s.source, ageHours: s.ageHours, error: s.error }));
    return {
      data: asJson({ budgets: listing.budgets, dataThrough: listing.dataThrough, stale }),
      summary: textOf(budgetListMessage(listing)),
    };
  },
});
