import type { Deps } from '../deps.js';
import { attributeSeries } from './gpu-attribution.js';

/** Hourly samples: a stopped machine started again for an hour or more is seen; a restart is not a minute's matter. */
const STEP_SECONDS = 3600;

/**
 * When each of `resourceIds` reported GPU samples in [from, to): instances by id or host name,
 * Kubernetes workloads by their pods (gpu-attribution.ts). A stopped machine sends none, so a
 * sample after a stop says someone started it again. Empty without GPU metrics. Read-only.
 */
export async function seenRunning(deps: Deps, resourceIds: readonly string[], from: Date, to: Date): Promise<Map<string, Date[]>> {
  const seen = new Map<string, Date[]>();
  if (!deps.gpu || resourceIds.length === 0 || to <= from) return seen;
  const wanted = new Set(resourceIds);
  const range = { start: Math.floor(from.getTime() / 1000), end: Math.ceil(to.getTime() / 1000), stepSeconds: STEP_SECONDS };
  const [{ instances: inventory }, series] = await Promise.all([
    deps.gpu.inventory(),
    Promise.all(deps.gpu.metrics.map((m) => m.fetch(range))),
  ]);
  const times = new Map<string, Set<number>>();
  for (const { series: s, instance } of attributeSeries(inventory, series.flat(), new Map())) {
    if (!wanted.has(instance.instanceId)) continue;
    const at = times.get(instance.instanceId) ?? new Set<number>();
    s.times.forEach((t, i) => {
      if (!Number.isNaN(s.util[i]!)) at.add(t);
    });
    times.set(instance.instanceId, at);
  }
  for (const [id, at] of times)
    seen.set(
      id,
      [...at].sort((a, b) => a - b).map((t) => new Date(t * 1000)),
    );
  return seen;
}
