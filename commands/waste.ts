import { renderCompactWasteChart, wastePlot } from '../src/charts/waste-chart.js';
import { toDay } from '../src/domain/period.js';
import { commitmentsOf, loadWasteDiagnosis, recentWaste, wastePeriod, wasteRows } from '../src/snapshots/waste-snapshot.js';
import { wasteReport } from '../templates/waste-report.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

export const wasteCommand: CommandSpec = {
  verb: 'waste',
  usage: '/burnrate waste [team] [YYYY-MM]',
  example: '/burnrate waste llm-training',
  summary: 'how much of your GPU spend is waste, by cause, and what to do first',
  async run(ctx, args) {
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const month = args.find((a) => /^\d{4}-\d{2}$/.test(a));
    // Every other word is the team: a second one is refused, never ignored (a diagnosis nobody asked for).
    const others = args.filter((a) => a !== month);
    if (args.length > 2 || others.length > 1)
      throw badArguments(this, `expected a team and a month (YYYY-MM) at most, got "${args.join(' ')}"`);
    const typed = others[0];
    const teams = typed ? [resolveTeamId(ctx.deps.config, typed, ctx.visibleTeams)] : ctx.visibleTeams;
    // The last 30 days are the dashboards' diagnosis, made at most once an hour; a month is made for the asking.
    const diagnosis =
      (month ? null : await recentWaste(ctx.deps)) ?? (await loadWasteDiagnosis(ctx.deps, wastePeriod({ month }, toDay(ctx.deps.clock()))));
    const rows = wasteRows(diagnosis, teams);
    const chartInput = { title: 'GPU spend and waste a month', currency: diagnosis.currency, rows };
    const chart = await renderCompactWasteChart(chartInput);
    return wasteReport({
      diagnosis,
      rows,
      commitments: commitmentsOf(diagnosis.commitments, teams),
      // Drawn by the platform where it can, the PNG its fallback (and the picture everywhere else).
      chartPlot: wastePlot({ ...chartInput, title: 'GPU waste a month' }),
      chartPng: chart.png.toString('base64'),
      dryRun: !ctx.deps.config.actions.enabled,
    });
  },
};
