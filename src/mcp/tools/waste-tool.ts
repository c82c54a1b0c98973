import { z } from 'zod';
import { wasteReport } from '../../../templates/waste-report.js';
import { toDay } from '../../domain/period.js';
import { commitmentsOf, loadWasteDiagnosis, wastePeriod, wasteRows } from '../../snapshots/waste-snapshot.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, defineTool, monthArg, teamArg, textOf } from './tool.js';

export const wasteTool = defineTool({
  name: 'waste',
  title: 'Waste diagnosis',
  description:
    "How much of each team's GPU spend is waste, by cause (idle, oversized, on demand where spot suits, ...), with the evidence and what to do first; commitments' coverage (`burnrate waste --json`).",
  input: {
    team: teamArg,
    month: monthArg,
    days: z.number().int().min(1).max(92).optional().describe('The last N whole days instead of a month (1 to 92).'),
  },
  output: {
    period: 'the days diagnosed and whether figures are scaled to a month',
    currency: 'the currency of every amount',
    teams: 'per team: GPU spend a month and its waste by category, with evidence',
    organisation: 'the whole organisation (admins only; null otherwise)',
    commitments: 'commitment coverage and always-on machines of your teams',
    instances: 'each GPU instance’s own idle and spot figures',
    notes: 'what the diagnosis could not see',
    unavailable:
      'inventory sources that could not be read (source, error), when any: the billed machines they could list are in the spend as each team’s unchecked, in no cause, not gone',
  },
  async run(caller, args) {
    const period = wastePeriod({ month: args.month, days: args.days }, toDay(caller.now));
    const { teams, whole } = askedScope(caller, args.team);
    const diagnosis = await loadWasteDiagnosis(caller.deps, period);
    // An admin asking for everything sees the CLI's answer whole; anyone else only their teams' lines.
    const shown = whole
      ? diagnosis
      : {
          ...diagnosis,
          teams: diagnosis.teams.filter((t) => teams.includes(t.team)),
          organisation: null,
          commitments: commitmentsOf(diagnosis.commitments, teams),
          staticCapacity: [],
          instances: diagnosis.instances.filter((i) => teams.includes(i.team)),
        };
    const rows = wasteRows(diagnosis, teams);
    const summary = textOf(
      wasteReport({ diagnosis: shown, rows, commitments: shown.commitments, dryRun: !caller.deps.config.actions.enabled }),
    );
    return { data: asJson(shown), summary };
  },
});
