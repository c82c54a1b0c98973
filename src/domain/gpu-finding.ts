import type { CommitmentCover, NotebookPlatform, PrepaidCapacity } from './gpu-inventory.js';
import type { InstanceLink } from './instance-links.js';
import { formatMoney } from './money.js';

export type IdleFindingKind = 'gpu.idle' | 'gpu.stalled';

export interface IdleFinding {
  /** kind, instance and start: the same idle period keeps its id on every run, a new one gets a new id. */
  id: string;
  kind: IdleFindingKind;
  team: string | null;
  instanceId: string;
  workload: string | null;
  protected: boolean;
  /** ISO timestamp the instance went idle. */
  since: string;
  idleMinutes: number;
  /** hourlyPrice × hours idle, to the cent. */
  burned: number;
  /** hourlyPrice × 24: what another day left running costs. */
  perDay: number;
  hourlyPrice: number;
  gpus: number;
  stalledGpus: number;
  /** Minutes of the period without data, counted as idle because the policy says so. */
  missingMinutes: number;
  /** e.g. "idle since 19:40 yesterday", on the team's clock. */
  description: string;
  /** What its GPUs did over the idle period (within the metrics read); absent on findings recorded before. */
  evidence?: IdleEvidence;
  /** Prepaid capacity (a Capacity Block, a reservation): stopping it saves nothing, so no saving is promised. */
  prepaid?: PrepaidCapacity;
  /**
   * Part of its cost covered by a Savings Plan (or a reservation the bill names), which is paid
   * whether it runs or not: stopping it frees the plan for other usage and saves only the rest,
   * `uncoveredPerDay` (perDay × the uncovered share, to the cent).
   */
  covered?: CommitmentCover & { uncoveredPerDay: number };
  /** A notebook platform's server: what the platform's own idle culling is set to. */
  notebook?: NotebookPlatform;
}

/** An idle instance's GPUs over the idle period: averages per GPU sample, null where the source has none. */
export interface IdleEvidence {
  utilMeanPct: number | null;
  utilMaxPct: number | null;
  /** Framebuffer memory in use, GiB, on average per GPU. */
  memUsedGiB: number | null;
  powerWattsPerGpu: number | null;
}

/** An idle or stalled GPU instance as the gpu check records it: the pure finding plus what people read. */
export interface GpuFinding extends IdleFinding {
  /** The instance's Name tag; null when it has none. */
  name: string | null;
  instanceType: string;
  /** The instance's `burnrate:owner` tag (a chat user id or an email); absent when it has none. */
  owner?: string | null;
  /** Its cloud console page and GPU dashboard, where known. */
  links?: InstanceLink[];
  /** A keep written on the resource itself (a Kubernetes workload's `burnrate.io/keep-until`), by a click on any replica or by hand. */
  keptOnResource?: { until: Date; byUser: string };
}

/**
 * An instance (or Kubernetes workload) of the inventory whose GPUs sent no metrics at all over the
 * window: without samples nothing says whether it works, so it is reported, not dropped.
 */
export interface UnmeteredGpu {
  instanceId: string;
  name: string | null;
  team: string | null;
  instanceType: string;
  gpus: number;
  hourlyPrice: number;
  /** Why it has none where burnrate can tell (its node's exporter names no pods), and what to change. */
  hint?: string;
}

export interface TrackedGpuFinding extends GpuFinding {
  state: 'open' | 'resolved';
  firstSeen: Date;
  lastSeen: Date;
  resolvedAt: Date | null;
}

/** How people name an instance: its Name tag, else its id. */
export function instanceLabel(finding: Pick<GpuFinding, 'name' | 'instanceId'>): string {
  return finding.name ?? finding.instanceId;
}

/**
 * What stopping the instance saves a day, the one figure every surface promises for a Stop: nothing
 * on prepaid capacity, only the uncovered part where a Savings Plan covers some of it (stopping
 * frees the plan for other usage, it does not refund it), else all of perDay.
 */
export function stopSavingPerDay(f: Pick<IdleFinding, 'perDay' | 'prepaid' | 'covered'>): number {
  if (f.prepaid) return 0;
  return f.covered ? f.covered.uncoveredPerDay : f.perDay;
}

/**
 * Neither the bill nor the price catalog prices it (a type newer than the catalog, a SageMaker
 * app not on the bill yet): its cost is unknown, never zero, and no saving is promised.
 */
export function unpriced(f: Pick<IdleFinding, 'hourlyPrice'>): boolean {
  return f.hourlyPrice === 0;
}

/** That saving in words, as a Stop's confirmation, its dry-run reply and an automatic stop's note say it. */
export function stopSavingWords(f: Pick<IdleFinding, 'perDay' | 'prepaid' | 'covered' | 'hourlyPrice'>): string {
  const perDay = formatMoney(stopSavingPerDay(f), 'USD');
  if (f.prepaid) return 'saving nothing: it is prepaid';
  if (unpriced(f)) return 'saving an amount burnrate cannot tell: it has no price for it';
  if (f.covered) return `saving only the uncovered ${perDay} per day (the rest is covered by a ${f.covered.by})`;
  return `saving ${perDay} per day`;
}
