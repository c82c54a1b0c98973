import { savingsLedgerMessage } from '../../../templates/savings-ledger.js';
import { monthOf, toDay } from '../../domain/period.js';
import { personOf } from '../../ports/people-directory.js';
import { loadSavingsLedger } from '../../snapshots/savings-ledger.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, defineTool, monthArg, teamArg, textOf } from './tool.js';

export const savingsTool = defineTool({
  name: 'savings',
  title: 'Savings ledger',
  description:
    'Each action taken through burnrate in a month (stops, spot migrations, ...), who took it, what it was expected to save and what the bill confirms (`burnrate savings --json`).',
  input: { team: teamArg, month: monthArg },
  output: {
    expected: 'saving expected from the actions, in the ledger’s currency',
    realised: 'saving the bill confirms so far',
    currency: 'the currency of every amount',
    lines: 'one per action and resource: when, action, who, expected, confirmed, note',
    basis: 'how expected and confirmed are computed',
  },
  async run(caller, args) {
    const { teams, whole } = askedScope(caller, args.team);
    // An admin asking for every team reads the whole ledger, as the CLI does (actions of no team included).
    const scope = whole ? null : teams;
    const ledger = await loadSavingsLedger(caller.deps, monthOf(args.month ? `${args.month}-01` : toDay(caller.now)), scope);
    const label = scope === null ? 'every team' : teams.length === 1 ? teams[0]! : 'your teams';
    return { data: asJson(ledger), summary: textOf(savingsLedgerMessage(ledger, label, (userId) => personOf(caller.deps, userId))) };
  },
});
