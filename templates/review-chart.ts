import { monthName } from './freshness.js';
import type { Message } from './message.js';

/** The review's chart, posted in its thread: daily spend stacked by service category. */
export function reviewChart(data: { teamName: string; month: string; png: string; team: string }): Message {
  const title = `${data.teamName}: daily spend by service category, ${monthName(data.month)}`;
  return {
    summary: title,
    blocks: [
      {
        type: 'image',
        title,
        alt: `Stacked bar chart of ${data.teamName}'s effective spend per day of ${monthName(data.month)}, by service category`,
        filename: `burnrate-${data.team}-${data.month}.png`,
        png: data.png,
      },
    ],
  };
}
