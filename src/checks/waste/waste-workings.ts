import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { WASTE_CATEGORIES, type WasteCategoryId, type WasteDiagnosis } from '../../domain/waste.js';
import type { GpuUsage } from '../recommend/gpu-usage.js';
import { allocateCents } from '../review/allocate.js';
import type { GpuTime } from './gpu-time.js';

/** One instance's cost for one team, split by cause: each part taken from what the ones before left. */
export interface Unit {
  instance: GpuInstance;
  team: string;
  cost: number;
  basis: 'billed' | 'list';
  time: GpuTime | null;
  usage: GpuUsage | null;
  /** Share of billed days the metrics saw (1 when priced from the metrics themselves). */
  coverage: number;
  parts: Partial<Record<WasteCategoryId, number>>;
  /** Share of its cost paid whether it runs or not (prepaid-share.ts): its idle hours are unused commitment, not a saving. */
  prepaid: number;
  /** What the oversized / spot parts propose, for the evidence and the first action. */
  target?: string;
  blocker?: string;
}

/** A team's part of one unused commitment over the period (the diagnosis's currency). */
export interface CommitmentPart {
  commitmentId: string;
  team: string;
  amount: number;
}

/**
 * What makes one cause's amount: an instance's GPU-hours at its rate (its cost over the period ÷ the
 * GPU-hours its metrics saw), times the share of those hours' cost that is this cause; or a team's
 * part of an unused commitment. `monthly` parts add up to the category's figure to the cent.
 */
export type WastePart =
  | {
      instanceId: string;
      name: string | null;
      instanceType: string;
      /** billed: the bill's effective cost; list: the catalog's price for the hours its GPUs reported (not on the bill yet). */
      basis: 'billed' | 'list';
      /** Its cost over the period, unscaled. */
      cost: number;
      /** GPU-hours its metrics saw running. */
      observedHours: number;
      /** The GPU-hours this cause counts: idle, stalled, not idle (oversized, spot), under the inference floor. */
      hours: number;
      /** cost ÷ observedHours. */
      rate: number;
      /** The share of those hours' cost that is this cause (prepaid hours, a right-size's price difference, spot's net discount, ...). */
      share: number;
      /** hours × rate × share: over the period, unscaled. */
      amount: number;
      monthly: number;
      target?: string;
      blocker?: string;
    }
  | { commitmentId: string; amount: number; monthly: number };

export interface WasteCategoryWorkings {
  id: WasteCategoryId;
  monthly: number;
  parts: WastePart[];
}

export interface TeamWasteWorkings {
  team: string;
  gpuSpend: number;
  categories: WasteCategoryWorkings[];
}

const HOURS = 3600;

/** The GPU-seconds each cause is counted on, of a unit's observed time. */
const COUNTED: Record<WasteCategoryId, (t: GpuTime) => number> = {
  idle: (t) => t.idle,
  stalled: (t) => t.stalled,
  oversized: (t) => t.observed - t.idle - t.stalled,
  'spot-ready': (t) => t.observed - t.idle - t.stalled,
  'spot-after-fix': (t) => t.observed - t.idle - t.stalled,
  'inference-off-hours': (t) => t.lowTraffic,
  'unused-commitment': (t) => t.idle + t.stalled,
};

/**
 * The workings of the diagnosis's rows (a team's, or the organisation's when `teams` is null): every
 * cause with the instances and commitments that make it, from the units the diagnosis split.
 */
export function wasteWorkings(
  diagnosis: WasteDiagnosis,
  units: readonly Unit[],
  commitments: readonly CommitmentPart[],
  monthFactor: number,
  teams: readonly string[] | null,
): TeamWasteWorkings[] {
  const rows = teams === null ? [...diagnosis.teams, diagnosis.organisation] : diagnosis.teams.filter((t) => teams.includes(t.team));
  return rows.map((row) => {
    const whole = row === diagnosis.organisation;
    const mine = units.filter((u) => whole || u.team === row.team);
    const owed = commitments.filter((c) => whole || c.team === row.team);
    const categories = WASTE_CATEGORIES.map((id): WasteCategoryWorkings => {
      const monthly = row.categories.find((c) => c.id === id)!.monthly;
      const raw = [
        ...mine
          .filter((u) => (u.parts[id] ?? 0) > 0)
          .map((u) => ({ key: `${u.instance.instanceId}|${u.team}`, amount: u.parts[id]!, unit: u })),
        ...(id === 'unused-commitment'
          ? owed.map((c) => ({ key: `commitment|${c.commitmentId}|${c.team}`, amount: c.amount, commitment: c }))
          : []),
      ];
      // Each part's month to the cent, the cents left by rounding given to the largest remainders: they add up to the figure.
      const cents = allocateCents(monthly, new Map(raw.map((r) => [r.key, r.amount * monthFactor])));
      const parts = raw
        .map((r): WastePart => {
          const partMonthly = cents.get(r.key) ?? 0;
          if ('commitment' in r) return { commitmentId: r.commitment.commitmentId, amount: r.amount, monthly: partMonthly };
          const u = r.unit;
          const observedHours = u.time!.observed / HOURS;
          const hours = COUNTED[id](u.time!) / HOURS;
          const rate = u.cost / observedHours;
          return {
            instanceId: u.instance.instanceId,
            name: u.instance.name ?? null,
            instanceType: u.instance.instanceType,
            basis: u.basis,
            cost: u.cost,
            observedHours,
            hours,
            rate,
            share: hours > 0 ? r.amount / (hours * rate) : 0,
            amount: r.amount,
            monthly: partMonthly,
            ...(id === 'oversized' && u.target ? { target: u.target } : {}),
            ...(id === 'spot-after-fix' && u.blocker ? { blocker: u.blocker } : {}),
          };
        })
        .sort((a, b) => b.monthly - a.monthly);
      return { id, monthly, parts };
    });
    return { team: row.team, gpuSpend: row.gpuSpend, categories };
  });
}
