import type { Block, ImageBlock, PlotBlock } from './message.js';

/** A chart as one platform takes it: its numbers to draw (with the PNG as the fallback), or the PNG. */
export interface ChartForMessage {
  png: string | null;
  plot: PlotBlock | null;
}

/**
 * The blocks of a chart: the platform's own chart when it has the numbers (the PNG, if any, as
 * its fallback), else the picture, else nothing.
 */
export function chartBlocks(picture: Omit<ImageBlock, 'type' | 'png'>, chart: ChartForMessage): Block[] {
  if (chart.plot) return [{ ...chart.plot, ...(chart.png ? { png: chart.png } : {}) }];
  return chart.png !== null ? [{ type: 'image', ...picture, png: chart.png }] : [];
}
