import type { GpuSeries } from '../../domain/gpu-metrics.js';
import type { IdleEvidence } from '../../domain/gpu-finding.js';

/**
 * What the GPUs of an idle instance did over its idle period [from, to) (seconds): utilisation on
 * average and at its highest, framebuffer memory in use and power drawn per GPU on average; each
 * null where the source has no such samples. The reader checks "idle" against the figures.
 */
export function idleEvidence(series: readonly GpuSeries[], from: number, to: number): IdleEvidence {
  let utilSum = 0;
  let utilCount = 0;
  let utilMax = -Infinity;
  let memSum = 0;
  let memCount = 0;
  let powerSum = 0;
  let powerCount = 0;
  for (const s of series) {
    for (let i = 0; i < s.times.length; i++) {
      const t = s.times[i]!;
      if (t < from || t >= to) continue;
      const util = s.util[i]!;
      if (!Number.isNaN(util)) {
        utilSum += util;
        utilCount += 1;
        if (util > utilMax) utilMax = util;
      }
      const mem = s.memUsedMiB?.[i];
      if (mem !== undefined && !Number.isNaN(mem)) {
        memSum += mem;
        memCount += 1;
      }
      const power = s.power?.[i];
      if (power !== undefined && !Number.isNaN(power)) {
        powerSum += power;
        powerCount += 1;
      }
    }
  }
  const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
  return {
    utilMeanPct: utilCount ? round(utilSum / utilCount, 1) : null,
    utilMaxPct: utilCount ? round(utilMax, 1) : null,
    memUsedGiB: memCount ? round(memSum / memCount / 1024, 1) : null,
    powerWattsPerGpu: powerCount ? Math.round(powerSum / powerCount) : null,
  };
}
