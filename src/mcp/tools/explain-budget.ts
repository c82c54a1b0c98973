import type { CommandContext } from '../../../commands/command.js';
import type { FittedUsage } from '../../checks/forecast/usage-models.js';
import type { Cadence } from '../../domain/finding.js';
import { formatMoney } from '../../domain/money.js';
import { explainBudgets, type BudgetWorkings } from '../../snapshots/budget-workings.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, type ToolAnswer } from './tool.js';

/**
 * How each budget's spent figure and forecast were computed, by the forecast the budget alert and
 * `burnrate budgets` use: the days spent, the model's level or trend, the days left out, the parts.
 */
export async function explainBudget(
  caller: CommandContext,
  args: { team?: string | undefined; cadence?: Cadence | undefined },
): Promise<ToolAnswer> {
  const { teams } = askedScope(caller, args.team);
  const explained = await explainBudgets(caller.deps, caller.now, teams);
  const budgets = explained.budgets.filter((b) => !args.cadence || b.cadence === args.cadence);
  const data = {
    figure: { name: 'budget', teams, cadence: args.cadence ?? null },
    basis:
      "spent: the team's effective cost (net of credits) on each day of the period up to the end of the data, in the budget's currency; forecast: spent plus the parts ahead, as the budget alert computes it",
    budgets,
    dataThrough: explained.dataThrough,
  };
  const lines = budgets.flatMap(summaryOf);
  return {
    data: asJson(data),
    summary: lines.length > 0 ? lines.join('\n') : `No budget for ${teams.join(', ')}${args.cadence ? ` (${args.cadence})` : ''}.`,
  };
}

function summaryOf(b: BudgetWorkings): string[] {
  const money = (n: number) => formatMoney(n, b.currency);
  const head = `${b.team}, ${b.cadence} budget ${money(b.budget)} (${b.period.start}..${b.period.end})`;
  const days = `${b.spent.days.length} days ${b.spent.read.start}..${b.spent.read.end} (end exclusive)`;
  if (b.spent.value === null) return [`${head}: spent unknown: no rate for ${b.spent.missing.join(', ')} in burnrate.yml.`];
  const converted = b.spent.converted.map((c) => `${c.currency} at ${c.rate}`).join(', ');
  const lines = [`${head}: spent ${money(b.spent.value)}, the sum of ${days}${converted ? `; converted: ${converted}` : ''}.`];
  if (b.listedAs.actualFrom === 'cloud')
    lines.push(`  The budget listing shows the cloud's own spent figure (${b.listedAs.origin} budget ${b.listedAs.name}).`);
  const f = b.forecast;
  if (!f) return lines;
  const p = f.parts;
  lines.push(
    `  Forecast ${money(f.value)}${f.range ? ` (80% range ${money(f.range.low)} to ${money(f.range.high)})` : ''}: ${f.method}.`,
    `  = spent ${money(p.spent)} + usage ahead ${money(p.usageAhead)} over ${f.remainingDays} days` +
      `${p.provisionalTopUp !== 0 ? ` + the provisional last day completed ${money(p.provisionalTopUp)}` : ''}` +
      `${p.creditsWithUsage !== 0 ? ` + credits with usage ${money(p.creditsWithUsage)}` : ''}` +
      `${p.chargesAhead !== 0 ? ` + charges ahead ${money(p.chargesAhead)}` : ''}.`,
  );
  if (f.fitted && f.history)
    lines.push(`  Fitted on ${f.history.days} days ${f.history.start}..${f.history.end}: ${fittedText(f.fitted, money)}.`);
  if (f.unusual.length > 0)
    lines.push(
      `  Left out as unusual (fitted at their weekday's usual): ${f.unusual.map((u) => `${u.day} (${u.offBy > 0 ? '+' : ''}${money(u.offBy)})`).join(', ')}.`,
    );
  return lines;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function fittedText(fitted: FittedUsage, money: (n: number) => string): string {
  switch (fitted.kind) {
    case 'straight line':
      return `${money(fitted.perDay)} a day`;
    case 'weekday level':
      return `weekday averages ${fitted.weekdayMeans.map((m, i) => `${WEEKDAYS[i]} ${money(m)}`).join(', ')} × level ${fitted.level.toFixed(3)} (last week at ${fitted.recentLevel.toFixed(3)}, trusted ${Math.round(fitted.levelWeight * 100)}%)`;
    case 'linear trend':
      return `${money(fitted.perDay)} a day at the history's middle, ${fitted.slope === 0 ? 'no trend (a slope noise alone could draw)' : `${money(fitted.slope)} more each day`}, with weekday factors`;
  }
}
