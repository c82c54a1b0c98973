import type { CommandContext } from '../../../commands/command.js';
import type { WastePart } from '../../checks/waste/waste-workings.js';
import { formatMoney } from '../../domain/money.js';
import { toDay } from '../../domain/period.js';
import { WASTE_LABELS } from '../../domain/waste.js';
import { loadWasteExplained, wastePeriod } from '../../snapshots/waste-snapshot.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, type ToolAnswer } from './tool.js';

/**
 * How each cause of the waste diagnosis adds up, from the same split `waste` shows: per cause, the
 * instances (their GPU-hours, rate and share) and unused commitments behind its monthly figure.
 */
export async function explainWaste(
  caller: CommandContext,
  args: { team?: string | undefined; month?: string | undefined; days?: number | undefined },
): Promise<ToolAnswer> {
  const period = wastePeriod({ month: args.month, days: args.days }, toDay(caller.now));
  const { teams, whole } = askedScope(caller, args.team);
  const { diagnosis, explain } = await loadWasteExplained(caller.deps, period);
  // As the waste tool: an admin asking for everything sees the organisation too; anyone else only their teams.
  const rows = explain(whole ? null : teams);
  const data = {
    figure: { name: 'waste', teams: whole ? null : teams },
    period: diagnosis.period,
    currency: diagnosis.currency,
    basis:
      "each cause a month: per instance, the GPU-hours it counts × the instance's rate (its cost over the period ÷ the GPU-hours its metrics saw) × the share of those hours' cost that is this cause, scaled to a month; parts rounded to cents that add up to the cause",
    teams: rows,
    notes: diagnosis.notes,
  };
  const money = (n: number) => formatMoney(n, diagnosis.currency);
  const lines = rows.flatMap((row) => [
    `${row.team}: GPU spend ${money(row.gpuSpend)} a month (${period.start}..${period.end}${diagnosis.period.scaledToMonth ? ', scaled to a month' : ''}).`,
    ...row.categories
      .filter((c) => c.monthly !== 0)
      .flatMap((c) => [`- ${WASTE_LABELS[c.id]}: ${money(c.monthly)} a month =`, ...c.parts.map((p) => `  ${partText(p, money)}`)]),
  ]);
  return { data: asJson(data), summary: [...lines, ...diagnosis.notes].join('\n') };
}

function partText(p: WastePart, money: (n: number) => string): string {
  if ('commitmentId' in p) return `${money(p.monthly)}: unused commitment ${p.commitmentId}`;
  const hours = (n: number) => (Math.round(n * 10) / 10).toFixed(1);
  return `${money(p.monthly)}: ${p.name ?? p.instanceId} (${p.instanceType}) ${hours(p.hours)} of ${hours(p.observedHours)} GPU-hours at ${money(p.rate)}/GPU-hour (${p.basis}) × ${Math.round(p.share * 1000) / 10}%${p.target ? ` → ${p.target}` : ''}${p.blocker ? `; ${p.blocker}` : ''}`;
}
