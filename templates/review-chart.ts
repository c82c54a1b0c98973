import { monthName } from './freshness.js';
import { chartBlocks } from './chart-blocks.js';
import type { Message, PlotBlock } from './message.js';

/**
 * The review's chart, posted in its thread: daily spend stacked by service category as a PNG, or
 * drawn by the platform from `plot` (each day's total) where it can, the PNG then its fallback.
 */
export function reviewChart(data: { teamName: string; month: string; png: string | null; team: string; plot?: PlotBlock | null }): Message {
  const title = `${data.teamName}: daily spend by service category, ${monthName(data.month)}`;
  return {
    summary: title,
    blocks: chartBlocks(
      {
        title,
        alt: `Stacked bar chart of ${data.teamName}'s effective spend per day of ${monthName(data.month)}, by service category`,
        filename: `burnrate-${data.team}-${data.month}.png`,
      },
      { png: data.png, plot: data.plot ?? null },
    ),
  };
}
