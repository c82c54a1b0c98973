import { formatMoney, formatPercent } from '../src/domain/money.js';
import type { ReviewWaste } from '../src/domain/review.js';
import { chartBlocks } from './chart-blocks.js';
import type { Message, PlotBlock } from './message.js';
import { notCheckedBlocks } from './unread-inventory-notice.js';
import { UNREAD_WASTE } from './waste-report.js';

export interface ReviewWasteData {
  waste: ReviewWaste;
  /** The team id, for the command that has the rest. */
  team: string;
  /** The review's month (YYYY-MM). */
  month: string;
  chartPng?: string;
  chartPlot?: PlotBlock;
}

/**
 * The review thread's waste reply: one line (how much of the month's GPU spend was waste, how much
 * of it one click fixes) and the chart; the causes, method and caveats are `/burnrate waste`'s.
 */
export function reviewWaste(data: ReviewWasteData): Message {
  const { row, currency } = data.waste;
  const money = (n: number) => formatMoney(n, currency);
  const share = (n: number) => (row.gpuSpend > 0 ? formatPercent(n / row.gpuSpend) : '0%');
  const headline = `GPU waste: ${money(row.afterFixes)} of ${money(row.gpuSpend)} (${share(row.afterFixes)})`;
  return {
    summary: headline,
    blocks: [
      {
        type: 'text',
        text: `**${headline}**, ${money(row.immediate)} of it fixable at once. Causes and what to do first: \`/burnrate waste ${data.team} ${data.month}\`.`,
      },
      ...chartBlocks(
        {
          title: `GPU spend and waste, ${row.teamName}`,
          alt: `A bar of the team's GPU spend a month, split by waste cause, the rest in grey`,
          filename: 'burnrate-waste.png',
        },
        { png: data.chartPng ?? null, plot: data.chartPlot ?? null },
      ),
      ...notCheckedBlocks(data.waste.unavailable ?? [], UNREAD_WASTE),
    ],
  };
}
