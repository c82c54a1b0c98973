// The chart thread: draws the charts the main thread asks for (chart-thread.ts starts it; nothing
// imports this file), so the seconds of CPU a busy machine spends compiling, laying out and
// rasterising a chart never hold up the event loop that acknowledges chat requests.

import { parentPort } from 'node:worker_threads';
import { drawChart } from './draw-chart.js';
import type { ChartReply, ChartRequest } from './chart-thread.js';

const port = parentPort;
if (!port) throw new Error('chart-worker runs as a worker thread only');

port.on('message', ({ id, spec, compact }: ChartRequest) => {
  drawChart(spec, compact).then(
    (chart) => port.postMessage({ id, chart } satisfies ChartReply),
    (error: Error) => port.postMessage({ id, error: error.message } satisfies ChartReply),
  );
});
