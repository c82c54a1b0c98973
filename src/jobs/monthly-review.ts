import { personOf } from '../ports/people-directory.js';
import {
  dailySpendPlot,
  renderCompactDailySpendChart,
  renderDailySpendChart,
  type DailySpendChartInput,
  type RenderedChart,
} from '../charts/daily-spend-chart.js';
import { chartFor, compactPngs, type ChartPngs } from '../outbox/chart-delivery.js';
import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import { monthOf } from '../domain/period.js';
import type { ReviewFigures, ReviewRecord, ReviewWaste, TrackedReviewLine } from '../domain/review.js';
import { renderCompactWasteChart, wastePlot } from '../charts/waste-chart.js';
import { reviewWaste } from '../../templates/review-waste.js';
import { spotButtonOptions } from '../snapshots/recommendations-for.js';
import { channelsOf, inThreadOn, postOn } from '../outbox/fan-out.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import { reviewChart } from '../../templates/review-chart.js';
import { monthName } from '../../templates/freshness.js';
import { reviewLine } from '../../templates/review-line.js';
import { reviewSummary } from '../../templates/review-summary.js';
import { lastMonth, nextMonth, zonedMidnight } from './review/review-calendar.js';
import { loadMonthGpuFigures, loadReviewFigures, type MonthGpuFigures } from './review/review-figures.js';
import { loadReviewLines } from './review/review-lines.js';
import { loadCategoryDays } from '../snapshots/team-breakdowns.js';
import { loadFxRates } from '../snapshots/fx-rates.js';
import { reviewGroup, teamPeople } from './review/review-people.js';

export interface ReviewOptions {
  /** YYYY-MM; by default the month before today on each team's clock. */
  month?: string;
  /** Only these teams. */
  teams?: readonly string[];
  /** Compute and render, but record nothing and queue nothing. */
  dryRun?: boolean;
}

export interface TeamReview {
  team: string;
  month: string;
  /** False when this team's review of this month had been posted before: nothing new was recorded. */
  created: boolean;
  figures: ReviewFigures;
  lines: TrackedReviewLine[];
  chart: RenderedChart;
  /** Outbox items queued by this run (0 when everything was queued before). */
  queued: number;
}

/**
 * The monthly cost review, step by step, per team:
 *   1. pick the month (last month on the team's clock, unless given)
 *   2. load the month's figures: spend, budget, change, forecast, idle GPUs, untagged, unit costs, showback
 *   3. pick the team's top cost lines, with instance facts and the catalog's spot saving
 *   4. render the chart: daily spend stacked by service category, as PNG
 *   5. record the review and its lines and queue, per platform, the parent message, the chart in its
 *      thread (as a file, or as a smaller PNG inside the message where that is how pictures go) and one reply per line, in one transaction. A review of
 *      the same team and month is recorded once: a second run keeps the first lines and queues only
 *      what is missing (a platform added since), so nothing is posted twice.
 */
export async function runMonthlyReview(deps: Deps, options: ReviewOptions = {}): Promise<TeamReview[]> {
  const now = deps.clock();
  const teams = deps.config.teams.filter((t) => !options.teams || options.teams.includes(t.id));
  const gpuByMonth = new Map<string, MonthGpuFigures>();
  const reviews: TeamReview[] = [];
  const fx = await loadFxRates(deps);
  for (const team of teams) {
    const month = options.month ?? lastMonth(now, team.timezone);
    if (!gpuByMonth.has(month)) gpuByMonth.set(month, await loadMonthGpuFigures(deps, month));
    const gpu = gpuByMonth.get(month)!;
    const figures = await loadReviewFigures(deps, team, month, gpu.idle, gpu.waste, fx);
    const lines = await loadReviewLines(deps, team.id, month, fx, gpu.waste);
    const days = await loadCategoryDays(deps, monthOf(`${month}-01`), team.id, { currency: figures.currency, fx });
    const chartInput: DailySpendChartInput = {
      title: reviewChart({ teamName: figures.teamName, month, png: '', team: team.id }).summary,
      period: monthOf(`${month}-01`),
      currency: figures.currency,
      days,
    };
    const chart = await renderDailySpendChart(chartInput);
    if (options.dryRun) {
      const preview = lines.map((line, index) => ({
        ...line,
        id: 0,
        team: team.id,
        month,
        rank: index + 1,
        answer: null,
        answeredBy: null,
        answeredAt: null,
        owner: null,
        ownerBy: null,
        ownerAt: null,
        remindedAt: null,
      }));
      reviews.push({ team: team.id, month, created: false, figures, lines: preview, chart, queued: 0 });
      continue;
    }
    const record = {
      team: team.id,
      month,
      figures,
      createdAt: now,
      closesAt: zonedMidnight(`${nextMonth(nextMonth(month))}-01`, team.timezone),
    };
    const pngs = {
      file: chart.png.toString('base64'),
      inline: await inlineChart(deps, team, chartInput),
      // The same days' numbers for platforms that draw their own chart (a shorter title fits their limits).
      plot: dailySpendPlot({ ...chartInput, title: `${figures.teamName}: daily spend, ${monthName(month)}` }),
    };
    const wastePngs = figures.waste ? await wasteChart(figures.waste) : null;
    const opened = await deps.store.reviews.open(
      record,
      lines,
      (stored, kept) => reviewDrafts(deps, team, kept, stored, pngs, wastePngs),
      now,
    );
    reviews.push({
      team: team.id,
      month,
      created: opened.created,
      figures: opened.record.figures,
      lines: opened.lines,
      chart,
      queued: opened.queued,
    });
  }
  return reviews;
}

/** The compact chart, rendered only when one of the team's platforms shows images inside messages. */
async function inlineChart(deps: Deps, team: TeamConfig, input: DailySpendChartInput): Promise<Buffer | null> {
  const wanted = channelsOf(deps.chat, team).some(({ port }) => !port.capabilities.files && port.capabilities.inlineImageBytes !== null);
  return wanted ? (await renderCompactDailySpendChart(input)).png : null;
}

/** The waste chart of one team: small enough for every platform, so one rendering serves files and cards alike. */
async function wasteChart(waste: ReviewWaste): Promise<ChartPngs> {
  const input = { title: `${waste.row.teamName}: GPU spend and waste a month`, currency: waste.currency, rows: [waste.row] };
  const { png } = await renderCompactWasteChart(input);
  return compactPngs(png, wastePlot({ ...input, title: `${waste.row.teamName}: GPU waste a month` }));
}

/**
 * The thread on every platform the team has a channel on: parent, chart (where it can go), the
 * waste diagnosis with its chart, one reply per line.
 */
function reviewDrafts(
  deps: Deps,
  team: TeamConfig,
  record: ReviewRecord,
  lines: readonly TrackedReviewLine[],
  pngs: ChartPngs,
  wastePngs: ChartPngs | null,
): OutboxDraft[] {
  const group = reviewGroup(team.id, record.month);
  const people = teamPeople(team);
  const drafts: OutboxDraft[] = [];
  for (const channel of channelsOf(deps.chat, team)) {
    const root = postOn(channel, `${group}:root`, reviewSummary(record.figures, lines.length), group);
    drafts.push(root);
    const chart = chartFor(deps, channel.port, team, pngs);
    if (chart) {
      drafts.push(
        ...inThreadOn(channel, root.dedupeKey, `${group}:chart`, [
          { op: 'reply', message: reviewChart({ teamName: record.figures.teamName, month: record.month, team: team.id, ...chart }) },
        ]),
      );
    }
    const waste = record.figures.waste;
    if (waste) {
      const chart = wastePngs ? chartFor(deps, channel.port, team, wastePngs) : null;
      // One line and the chart: the causes, method and caveats are /burnrate waste's, not every thread's.
      const message = reviewWaste({
        waste,
        team: team.id,
        month: record.month,
        ...(chart?.png ? { chartPng: chart.png } : {}),
        ...(chart?.plot ? { chartPlot: chart.plot } : {}),
      });
      drafts.push(...inThreadOn(channel, root.dedupeKey, `${group}:waste`, [{ op: 'reply', message }]));
    }
    for (const line of lines) {
      const message = reviewLine({
        line,
        currency: record.figures.currency,
        people,
        person: (userId) => personOf(deps, userId),
        spot: spotButtonOptions(deps),
      });
      drafts.push(...inThreadOn(channel, root.dedupeKey, `${group}:line:${line.rank}`, [{ op: 'reply', message }]));
    }
  }
  return drafts;
}
