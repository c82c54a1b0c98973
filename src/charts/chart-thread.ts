import { isMainThread, Worker } from 'node:worker_threads';
import type { TopLevelSpec } from 'vega-lite';
import { drawChart, type RenderedChart } from './draw-chart.js';

// Drawing a chart is one synchronous stretch of CPU (vega-lite's compiler, vega's layout, resvg's
// rasteriser: a few hundred milliseconds the first time, seconds on a loaded machine). On the main
// thread it would hold every Slack or Teams request that arrives meanwhile, so the main thread hands
// its charts to one chart thread, started on the first chart and kept; threads that are not the
// main one (answer workers) draw their own. The TypeScript sources, run by the tests, draw in place:
// the thread's script exists only in the build (the same drawing, the same bytes).

export interface ChartRequest {
  id: number;
  spec: TopLevelSpec;
  compact: boolean;
}

export type ChartReply = { id: number; chart: RenderedChart; error?: undefined } | { id: number; error: string; chart?: undefined };

const SCRIPT = new URL('./chart-worker.js', import.meta.url);
const BUILT = import.meta.url.endsWith('.js');

interface ChartThread {
  worker: Worker;
  waiting: Map<number, { resolve: (chart: RenderedChart) => void; reject: (error: Error) => void }>;
}

let thread: ChartThread | null = null;
let lastId = 0;

/** The chart drawn on the chart thread from the main thread of the built program, in place otherwise. */
export function drawChartOffThread(spec: TopLevelSpec, compact: boolean, offThread = isMainThread && BUILT): Promise<RenderedChart> {
  if (!offThread) return drawChart(spec, compact);
  const { worker, waiting } = chartThread();
  const id = ++lastId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    // Kept alive while a chart is being drawn; idle, the thread never holds the process open.
    worker.ref();
    worker.postMessage({ id, spec, compact } satisfies ChartRequest);
  });
}

function chartThread(): ChartThread {
  if (thread) return thread;
  const started: ChartThread = { worker: new Worker(SCRIPT), waiting: new Map() };
  const { worker, waiting } = started;
  const settled = () => {
    if (waiting.size === 0) worker.unref();
  };
  worker.on('message', (reply: ChartReply) => {
    const caller = waiting.get(reply.id);
    waiting.delete(reply.id);
    settled();
    if (!caller) return;
    if (reply.error !== undefined) caller.reject(new Error(reply.error));
    // A Buffer arrives as a plain Uint8Array.
    else caller.resolve({ ...reply.chart, png: Buffer.from(reply.chart.png) });
  });
  // A thread that failed or stopped fails what it was drawing; the next chart starts another.
  const fail = (error: Error) => {
    if (thread === started) thread = null;
    for (const caller of waiting.values()) caller.reject(error);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the chart thread stopped (exit code ${code})`)));
  worker.unref();
  thread = started;
  return started;
}
