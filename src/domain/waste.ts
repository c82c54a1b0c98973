import type { StaticPool } from './kube-usage.js';
import type { UnreadInventory } from './inventory-read.js';
/**
 * The waste diagnosis: how much of a team's GPU spend buys nothing, by cause, and what to do first.
 * This is also the documented shape of `burnrate waste --json`: add fields, never rename them.
 */

/**
 * Causes in the order they are taken, each on what the causes before it left: an hour counted idle
 * is not also oversized, and a right-sized instance's spot saving is counted on its smaller cost.
 */
export const WASTE_CATEGORIES = [
  'idle',
  'stalled',
  'oversized',
  'spot-ready',
  'spot-after-fix',
  'inference-off-hours',
  'unused-commitment',
] as const;
export type WasteCategoryId = (typeof WASTE_CATEGORIES)[number];

export const WASTE_LABELS: Record<WasteCategoryId, string> = {
  idle: 'Idle GPUs',
  stalled: 'Stalled jobs',
  oversized: 'Oversized instances',
  'spot-ready': 'On-demand → spot, ready now',
  'spot-after-fix': 'On-demand → spot, after a checkpoint fix',
  'inference-off-hours': 'Inference kept up outside traffic',
  'unused-commitment': 'Unused commitments',
};

/** Taken without engineering work: stop what is idle or hung, approve spot where it is ready. */
export const IMMEDIATE_CATEGORIES: ReadonlySet<WasteCategoryId> = new Set(['idle', 'stalled', 'spot-ready']);

/** What the seeds promise ML teams: 20–30 % of GPU spend back at once, 30–60 % after fixes. */
export const BENCHMARK_SHARES = { immediate: [0.2, 0.3], afterFixes: [0.3, 0.6] } as const;

export type Confidence = 'high' | 'medium' | 'low';

/** The first thing to do about a category, with the button that does it where one exists. */
export interface WasteAction {
  text: string;
  /** A button's action id and value (an Approve spot migration of the instance named). */
  button?: { action: string; label: string; value: string };
}

export interface WasteCategory {
  id: WasteCategoryId;
  label: string;
  /** In the report's currency a month (the period's figure scaled to a month when it is not one). */
  monthly: number;
  /** monthly / the GPU spend a month; 0 without GPU spend. */
  share: number;
  /** Sentences with the figures it stands on. */
  evidence: string[];
  confidence: Confidence;
  /** Null when the category is empty. */
  firstAction: WasteAction | null;
}

export interface TeamWaste {
  team: string;
  teamName: string;
  /** GPU spend a month: what the bill charges for the team's GPU instances and its share of unused GPU commitments. */
  gpuSpend: number;
  /** Every category, in WASTE_CATEGORIES order (empty ones at 0), adding up to afterFixes. */
  categories: WasteCategory[];
  /** The immediate categories' sum. */
  immediate: number;
  /** Every category's sum: never more than gpuSpend. */
  afterFixes: number;
  /**
   * The part of gpuSpend no GPU metrics saw (instances without metrics over the period, but for those counted unchecked): kept in
   * the spend, in no cause, never dropped.
   */
  unmeasured: number;
  /**
   * The part of gpuSpend on machines a GPU inventory that could not be read may list (the
   * diagnosis's `unavailable`): unknown, not gone, kept in the spend, in no cause, and not in unmeasured.
   */
  unchecked: number;
  /** Physical GPU-hours idle or stalled over the period (not scaled): the hours behind the idle and stalled causes. */
  idleGpuHours: number;
}

export interface OrganisationWaste extends TeamWaste {
  /**
   * GPU spend nobody owns (untagged, or tagged for a team burnrate.yml does not know): a blocker,
   * not a saving. Its waste is in the organisation's categories; no team can act on it until tagged.
   */
  unallocated: { monthly: number; share: number; evidence: string[] };
}

/** Commitments (Savings Plans, reservations, CUDs) that cover GPU instances, and where one would pay. */
export interface CommitmentReport {
  /**
   * As the provider measures coverage (AWS Savings Plans coverage): GPU usage the bill shows under a
   * commitment, at on-demand rates, ÷ (that + the on-demand spend on GPU instances a commitment
   * could cover). Not instance-hours. Null without such spend.
   */
  coverage: number | null;
  /** How coverage is measured here, in words (which providers, which rates). */
  coverageBasis: string;
  /** Used / (used + unused) of the commitments covering GPU instances, by effective cost (AWS's utilisation); null without any. */
  utilisation: number | null;
  commitments: {
    id: string;
    /** Amortised cost of the GPU usage it covered, a month. */
    usedMonthly: number;
    unusedMonthly: number;
    utilisation: number;
    /** When it ends, where the bill says (CUR exports); else null. */
    endsOn: string | null;
    /** Days from today to its end; null when the end is not known. */
    daysLeft: number | null;
  }[];
  /** Ids of the commitments ending within EXPIRY_WARNING_DAYS. */
  expiring: string[];
  /** On-demand GPU machines (not Kubernetes workloads) that ran at least ALWAYS_ON_SHARE of the period: where a commitment may pay. */
  alwaysOn: {
    instanceId: string;
    name: string | null;
    team: string;
    instanceType: string;
    /** Share of the period's hours it ran on demand. */
    runningShare: number;
    /** What it costs a month on demand (billed). */
    monthly: number;
    /**
     * A 1-year commitment's saving a month as it is paid: the on-demand cost of the hours it runs less
     * the catalog's committed rate for every hour of the month (negative: it would cost more than it
     * covers); null where the catalog has no committed rate. Never for a Kubernetes workload.
     */
    commitmentSaving: number | null;
    /** Spot's saving a month where spot suits it (checkpointed training); else null. */
    spotSaving: number | null;
    advice: string;
  }[];
}

/** Commitments ending within this many days are told ahead. */
export const EXPIRY_WARNING_DAYS = 60;
/** GPU capacity running at least this share of hours on demand is always on: a commitment candidate. */
export const ALWAYS_ON_SHARE = 0.7;

export interface WasteDiagnosis {
  /** The period diagnosed: [start, end) as YYYY-MM-DD, and how figures become monthly. */
  period: { start: string; end: string; days: number; scaledToMonth: boolean };
  currency: string;
  teams: TeamWaste[];
  organisation: OrganisationWaste;
  commitments: CommitmentReport;
  /** Kubernetes GPU node pools that never scaled to zero while their GPUs sat unrequested (list price, USD); empty without clusters. */
  staticCapacity: StaticPool[];
  /** What the diagnosis could not see (instances without metrics or without a bill), for every reader. */
  notes: string[];
  /**
   * GPU inventory sources that could not be read: a machine of theirs on the bill is unknown, not
   * gone (its bill in the spend, in no cause); one the bill cannot tie to an id is missing. Absent: all read.
   */
  unavailable?: UnreadInventory[];
  /**
   * Each GPU instance's own figures for each team the bill charged it to, a month: the one idle and
   * the one spot figure the review's lines and the waste report read (its causes add these up).
   */
  instances: InstanceWaste[];
}

/** One instance's waste figures for one team, a month, in the diagnosis's currency. */
export interface InstanceWaste {
  instanceId: string;
  team: string;
  /** Its GPU spend: the bill's charge (list price where the bill does not show it yet). */
  cost: number;
  /** Idle and stalled. */
  idle: number;
  /** On-demand → spot, ready now or after a checkpoint fix; null when spot is not advised for it. */
  spot: number | null;
}
