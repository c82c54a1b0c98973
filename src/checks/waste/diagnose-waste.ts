import type { StaticPool } from '../../domain/kube-usage.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import { ACTION_IDS } from '../../domain/action-ids.js';
import { formatMoney } from '../../domain/money.js';
import { UNMAPPED } from '../../domain/spend.js';
import {
  IMMEDIATE_CATEGORIES,
  WASTE_CATEGORIES,
  WASTE_LABELS,
  type Confidence,
  type OrganisationWaste,
  type TeamWaste,
  type WasteAction,
  type WasteCategory,
  type WasteCategoryId,
  type WasteDiagnosis,
} from '../../domain/waste.js';
import type { GpuUsage } from '../recommend/gpu-usage.js';
import { multiNodeInstances } from '../recommend/recommend.js';
import type { RecommendationsPolicy, SpotPolicy } from '../recommend/recommend-policy.js';
import { rightSizeRecommendation } from '../recommend/right-size.js';
import { uncoveredPart } from '../recommend/saving.js';
import { spotRecommendation } from '../recommend/spot.js';
import { allocateCents, cents } from '../review/allocate.js';
import type { GpuTime } from './gpu-time.js';
import { commitmentReport } from './commitments.js';
import { prepaidShares } from './prepaid-share.js';
import { wasteWorkings, type CommitmentPart, type TeamWasteWorkings, type Unit } from './waste-workings.js';

/** What the bill charged one GPU instance over the period, for one team (a retagged instance has two). */
export interface BilledResource {
  resourceId: string;
  team: string;
  /** Effective cost in the report's currency. */
  cost: number;
  /** Days the bill charged it something. */
  days: number;
  /** The commitment that covered some of it (Savings Plan, reservation, CUD), else null. */
  commitmentId: string | null;
  /** Hours of use the bill counted, where it counts hours. */
  hours: number | null;
  /** When the commitment ends, where the bill says. */
  commitmentEnd: string | null;
}

export interface WasteInput {
  /** Kubernetes node pools found static over the period (src/checks/kubernetes/static-capacity.ts), passed through. */
  staticCapacity?: readonly StaticPool[];
  period: { start: string; end: string; days: number };
  /** Period figures × this = monthly figures (1 for a calendar month). */
  monthFactor: number;
  currency: string;
  teams: readonly { id: string; name: string }[];
  /** GPU instances of the inventory, each with its GPU time and usage over the period (none: no metrics). */
  instances: readonly { instance: GpuInstance; time: GpuTime | null; usage: GpuUsage | null }[];
  /** The bill's rows for those instances. */
  billed: readonly BilledResource[];
  /** Unused commitment over the period by commitment id, in the report's currency. */
  unusedCommitments: readonly { commitmentId: string; amount: number; commitmentEnd: string | null }[];
  /** The metrics window's length, seconds: what an always-on instance runs nearly all of. */
  periodSeconds: number;
  /** Today (YYYY-MM-DD): how far commitments are from their end. */
  today: string;
  /** showback.commitmentOwner: who carries unused commitment (else the teams it covered). */
  commitmentOwner?: string | undefined;
  runTagKey?: string;
  catalog: PriceCatalog;
  recommendations: RecommendationsPolicy;
  spot: SpotPolicy;
  /** Inference GPUs under this utilisation (0–100) count as kept up outside traffic. */
  inferenceUtilFloor: number;
  /** Instances whose GPU inventory could not be read: unknown, in the spend, in no cause (the answer names the source, not each machine). */
  unread?: readonly string[];
}

const HOURS = 3600;

/**
 * The read-only waste diagnosis. Pure: the snapshot (src/snapshots/waste-snapshot.ts) reads the
 * bill, inventory and metrics. Money comes from the bill (each instance's effective cost over the
 * period); the metrics only say which share of it bought nothing. An instance the bill does not
 * show yet is priced at its list price for the hours its GPUs reported.
 */
export function diagnoseWaste(input: WasteInput): WasteDiagnosis {
  return diagnoseWasteExplained(input).diagnosis;
}

/** The diagnosis, and on demand how its causes' figures were made (explain_figure): from the same units, split once. */
export function diagnoseWasteExplained(input: WasteInput): {
  diagnosis: WasteDiagnosis;
  /** Its rows' workings: `teams`' rows, or every team's and the organisation's (null). */
  explain(teams: readonly string[] | null): TeamWasteWorkings[];
} {
  const units = unitsOf(input);
  const multiNode = multiNodeInstances(
    units.map((u) => u.instance),
    input.runTagKey,
  );
  // Instances the bill shows under a commitment: moving them to spot saves nothing while it runs.
  const committed = new Set(input.billed.filter((b) => b.commitmentId !== null).map((b) => b.resourceId));
  const prepaid = prepaidShares(input.instances, input.billed);
  for (const unit of units) {
    unit.prepaid = prepaid.get(unit.instance.instanceId) ?? 0;
    splitUnit(unit, input, multiNode, committed);
  }
  const commitments = commitmentShares(input);
  const notes = notesOf(input);

  const teamWaste = (team: { id: string; name: string }): TeamWaste =>
    summarise(
      team.id,
      team.name,
      units.filter((u) => u.team === team.id),
      commitments.byTeam.get(team.id) ?? 0,
      commitments,
      input,
    );
  const teams = input.teams.map(teamWaste);
  const known = new Set(input.teams.map((t) => t.id));
  const orphan = units.filter((u) => !known.has(u.team));
  // Unowned: the orphan instances and any unused commitment that covered them.
  const orphanCommitment = [...commitments.byTeam].filter(([team]) => !known.has(team)).reduce((s, [, amount]) => s + amount, 0);
  const unallocated = scale(orphan.reduce((s, u) => s + u.cost, 0) + orphanCommitment, input);
  const all = summarise('organisation', 'Organisation', units, commitments.total, commitments, input);
  // The organisation's GPU spend is its rows added up, to the cent: each team once, plus what nobody
  // owns. A headline over the organisation never adds the teams to it again (see waste-headline.ts).
  all.gpuSpend = cents(teams.reduce((s, t) => s + t.gpuSpend, 0) + unallocated);
  for (const c of all.categories) c.share = all.gpuSpend > 0 ? c.monthly / all.gpuSpend : 0;
  const organisation: OrganisationWaste = {
    ...all,
    unallocated: {
      monthly: unallocated,
      share: all.gpuSpend > 0 ? unallocated / all.gpuSpend : 0,
      evidence: [unallocatedEvidence(orphan)],
    },
  };
  // Each instance's idle and spot figure, the one every surface reads (the review, recommend, and
  // the always-on table below).
  const instances = units.map((u) => ({
    instanceId: u.instance.instanceId,
    team: u.team,
    cost: scale(u.cost, input),
    idle: scale((u.parts.idle ?? 0) + (u.parts.stalled ?? 0), input),
    spot:
      u.parts['spot-ready'] !== undefined || u.parts['spot-after-fix'] !== undefined
        ? scale((u.parts['spot-ready'] ?? 0) + (u.parts['spot-after-fix'] ?? 0), input)
        : null,
  }));
  const diagnosis: WasteDiagnosis = {
    period: { ...input.period, scaledToMonth: input.monthFactor !== 1 },
    currency: input.currency,
    teams,
    organisation,
    commitments: commitmentReport({
      spotFigures: new Map(instances.filter((i) => i.spot !== null).map((i) => [i.instanceId, i.spot!])),
      billed: input.billed,
      unused: input.unusedCommitments,
      instances: input.instances,
      periodSeconds: input.periodSeconds,
      monthFactor: input.monthFactor,
      today: input.today,
      catalog: input.catalog,
      recommendations: input.recommendations,
      spot: input.spot,
      multiNode,
    }),
    staticCapacity: [...(input.staticCapacity ?? [])],
    notes,
    instances,
  };
  return { diagnosis, explain: (teams) => wasteWorkings(diagnosis, units, commitments.parts, input.monthFactor, teams) };
}

/** Whose GPU spend nobody owns, and why. */
function unallocatedEvidence(orphan: readonly Unit[]): string {
  if (orphan.length === 0) return 'Every GPU instance the bill charges belongs to a team.';
  const names = [...new Set(orphan.map((u) => label(u.instance)))];
  const why = orphan.some((u) => u.team === UNMAPPED) ? 'carry a team tag burnrate.yml does not know, or none' : 'carry no team tag';
  return `${countOf(names.length, 'GPU instance')} (${names.slice(0, 5).join(', ')}) ${why}: no team sees this spend or can act on its waste. Tag them (or add the team) first.`;
}

/** One unit per (instance, team) the bill charged, plus instances the bill does not show, at list price. */
function unitsOf(input: WasteInput): Unit[] {
  const billedCost = new Map<string, Map<string, { cost: number; days: number }>>();
  for (const row of input.billed) {
    const teams = billedCost.get(row.resourceId) ?? new Map<string, { cost: number; days: number }>();
    const entry = teams.get(row.team) ?? { cost: 0, days: 0 };
    entry.cost += row.cost;
    entry.days = Math.max(entry.days, row.days);
    teams.set(row.team, entry);
    billedCost.set(row.resourceId, teams);
  }
  const units: Unit[] = [];
  for (const { instance, time, usage } of input.instances) {
    const teams = billedCost.get(instance.instanceId);
    if (teams) {
      for (const [team, { cost, days }] of teams)
        if (cost > 0)
          units.push({
            instance,
            team,
            cost,
            basis: 'billed',
            time,
            usage,
            coverage: time && days > 0 ? Math.min(1, time.days.size / days) : 0,
            prepaid: 0,
            parts: {},
          });
    } else if (time && time.observed > 0 && !instance.kubernetes) {
      // Not on the bill yet: a machine at list price. A workload only ever at its nodes' bill (a
      // node the bill names otherwise, a GKE node by its project, would be counted twice).
      const hours = time.observed / HOURS / Math.max(1, instance.gpuCount);
      units.push({
        instance,
        team: instance.team,
        cost: hours * instance.hourlyPrice,
        basis: 'list',
        time,
        usage,
        coverage: 1,
        prepaid: 0,
        parts: {},
      });
    }
  }
  return units;
}

/** Idle, stalled, oversized, spot and off-hours parts of one unit, each on what the ones before left. */
function splitUnit(unit: Unit, input: WasteInput, multiNode: ReadonlySet<string>, committed: ReadonlySet<string>): void {
  const time = unit.time;
  if (!time || time.observed <= 0) return;
  const usage = unit.usage;
  const idle = unit.cost * (time.idle / time.observed);
  const stalled = unit.cost * (time.stalled / time.observed);
  let left = unit.cost - idle - stalled;
  // Prepaid hours cost the same idle or not: stopping saves nothing, so their idle and stalled part
  // is unused commitment (use it, or size it down at renewal), never an idle saving.
  unit.parts.idle = idle * (1 - unit.prepaid);
  unit.parts.stalled = stalled * (1 - unit.prepaid);
  if (unit.prepaid > 0) unit.parts['unused-commitment'] = (idle + stalled) * unit.prepaid;
  // A Kubernetes workload wastes by holding GPUs idle or stalled; a smaller machine or spot is its
  // nodes' choice, which static capacity and the node's own review line speak to. A Capacity Block's
  // or reservation's type and price are fixed until it ends.
  if (!usage || unit.instance.kubernetes || unit.instance.prepaid) return;

  const rightSize = rightSizeRecommendation(unit.instance, usage, input.catalog, input.recommendations);
  if (rightSize && rightSize.current.hourly > 0) {
    // As the recommendation prices it: a smaller type saves only on the share no commitment covers
    // (unit.prepaid is that covered share, from the same bill rows).
    const oversized = uncoveredPart(left * (1 - rightSize.proposed.hourly / rightSize.current.hourly), unit.prepaid);
    unit.parts.oversized = oversized;
    unit.target = rightSize.proposed.instanceType;
    left -= oversized;
  }
  const spotPossible = !committed.has(unit.instance.instanceId) && !multiNode.has(unit.instance.instanceId);
  const spot = spotPossible ? spotRecommendation(unit.instance, usage, input.catalog, input.recommendations, input.spot) : null;
  if (spot && spot.hoursPerMonth > 0) {
    // The recommendation's saving net of rework, as a share of what the instance costs on demand.
    const share = Math.min(1, spot.monthlySaving / (spot.current.hourly * spot.hoursPerMonth));
    const part = left * share;
    unit.parts[spot.blocker ? 'spot-after-fix' : 'spot-ready'] = part;
    if (spot.blocker) unit.blocker = spot.blocker;
    left -= part;
  }
  const busy = time.observed - time.idle - time.stalled;
  if (unit.instance.workload === 'inference' && time.lowTraffic > 0 && busy > 0) {
    // Hours under the floor could run on the capacity the floor needs: the rest of them is spare.
    const meanUtil = time.lowTrafficUtil / time.lowTraffic;
    unit.parts['inference-off-hours'] = left * (time.lowTraffic / busy) * Math.max(0, 1 - meanUtil / input.inferenceUtilFloor);
  }
}

interface CommitmentShares {
  byTeam: Map<string, number>;
  total: number;
  /** Unused amount by GPU commitment id (period figures). */
  unused: Map<string, number>;
  /** Each team's part of each, as byTeam adds them. */
  parts: CommitmentPart[];
}

/**
 * Unused commitments that cover GPU instances (the bill shows them on a GPU instance's rows), carried
 * by showback.commitmentOwner or else by the teams whose GPU instances they covered, in proportion,
 * to the cent, as showback does.
 */
function commitmentShares(input: WasteInput): CommitmentShares {
  const use = new Map<string, Map<string, number>>();
  for (const row of input.billed) {
    if (!row.commitmentId) continue;
    const teams = use.get(row.commitmentId) ?? new Map<string, number>();
    teams.set(row.team, (teams.get(row.team) ?? 0) + row.cost);
    use.set(row.commitmentId, teams);
  }
  const byTeam = new Map<string, number>();
  const unused = new Map<string, number>();
  const parts: CommitmentPart[] = [];
  let total = 0;
  const owner = input.teams.some((t) => t.id === input.commitmentOwner) ? input.commitmentOwner! : null;
  for (const { commitmentId, amount } of input.unusedCommitments) {
    const covered = use.get(commitmentId);
    if (!covered || amount <= 0) continue;
    unused.set(commitmentId, (unused.get(commitmentId) ?? 0) + amount);
    total += amount;
    for (const [team, part] of allocateCents(amount, owner ? new Map([[owner, 1]]) : covered)) {
      byTeam.set(team, (byTeam.get(team) ?? 0) + part);
      parts.push({ commitmentId, team, amount: part });
    }
  }
  return { byTeam, total, unused, parts };
}

function summarise(
  team: string,
  teamName: string,
  units: readonly Unit[],
  unusedCommitment: number,
  commitments: CommitmentShares,
  input: WasteInput,
): TeamWaste {
  const gpuSpend = scale(units.reduce((s, u) => s + u.cost, 0) + unusedCommitment, input);
  const unread = new Set(input.unread ?? []);
  const categories = WASTE_CATEGORIES.map((id): WasteCategory => {
    const parts = units.reduce((s, u) => s + (u.parts[id] ?? 0), 0);
    const amount = id === 'unused-commitment' ? unusedCommitment + parts : parts;
    const monthly = scale(amount, input);
    const contributors = units.filter((u) => (u.parts[id] ?? 0) > 0).sort((a, b) => b.parts[id]! - a.parts[id]!);
    return {
      id,
      label: WASTE_LABELS[id],
      monthly,
      share: gpuSpend > 0 ? monthly / gpuSpend : 0,
      evidence: monthly > 0 ? evidenceOf(id, contributors, units, commitments, input) : [],
      confidence: confidenceOf(id, contributors),
      firstAction: monthly > 0 ? firstActionOf(id, contributors, commitments, input) : null,
    };
  });
  const sumOf = (ids: (c: WasteCategory) => boolean) => cents(categories.filter(ids).reduce((s, c) => s + c.monthly, 0));
  return {
    team,
    teamName,
    gpuSpend,
    categories,
    immediate: sumOf((c) => IMMEDIATE_CATEGORIES.has(c.id)),
    afterFixes: sumOf(() => true),
    unmeasured: scale(
      units.filter((u) => !unread.has(u.instance.instanceId) && (!u.time || u.time.observed <= 0)).reduce((s, u) => s + u.cost, 0),
      input,
    ),
    unchecked: scale(
      units.filter((u) => unread.has(u.instance.instanceId)).reduce((s, u) => s + u.cost, 0),
      input,
    ),
    idleGpuHours: Math.round(units.reduce((s, u) => s + (u.time ? (u.time.idle + u.time.stalled) / HOURS : 0), 0) * 10) / 10,
  };
}

function evidenceOf(
  id: WasteCategoryId,
  units: readonly Unit[],
  all: readonly Unit[],
  commitments: CommitmentShares,
  input: WasteInput,
): string[] {
  const hoursOf = (of: readonly Unit[], pick: (t: GpuTime) => number) =>
    Math.round(of.reduce((s, u) => s + (u.time ? pick(u.time) : 0) / HOURS, 0));
  const gpuHours = (pick: (t: GpuTime) => number) => hoursOf(units, pick);
  const observed = hoursOf(all, (t) => t.observed);
  const instances = countOf(units.length, 'instance');
  const basis = basisOf(units);
  switch (id) {
    case 'idle':
      return [
        `${gpuHours((t) => t.idle)} of all ${observed} running GPU-hours were idle under the idle policy (the idle alert's own test), on ${instances}, valued at ${basis}.`,
      ];
    case 'stalled':
      return [
        `${gpuHours((t) => t.stalled)} GPU-hours on ${instances} held GPU memory with no work (a hung job or a breakpoint), valued at ${basis}.`,
      ];
    case 'oversized':
      return [
        `${units.map((u) => `${label(u.instance)}: ${u.instance.instanceType} → ${u.target}${u.prepaid > 0 ? ` (only the ${Math.round((1 - u.prepaid) * 100)}% of its cost no commitment covers)` : ''}`).join('; ')}. Counted on the hours that were not idle, as the price difference of the smaller type of the same or a newer GPU architecture that holds the memory high-water mark.`,
      ];
    case 'spot-ready':
    case 'spot-after-fix':
      return [
        `${units.map((u) => label(u.instance)).join(', ')}: checkpointed training on on-demand capacity, not under a commitment nor one node of a multi-node run. Spot's catalog discount, net of work redone after ${input.spot.interruptionsPerMonth} reclaims a month, on what is left after idle and right-size.`,
        ...(id === 'spot-after-fix' ? [`Before spot: ${units[0]!.blocker}`] : []),
      ];
    case 'inference-off-hours':
      return [
        `${gpuHours((t) => t.lowTraffic)} GPU-hours of inference ran under ${input.inferenceUtilFloor}% utilisation (mean ${Math.round(
          units.reduce((s, u) => s + u.time!.lowTrafficUtil, 0) /
            Math.max(
              1,
              units.reduce((s, u) => s + u.time!.lowTraffic, 0),
            ),
        )}%); the share of that capacity above what the floor needs, valued at ${basis}.`,
      ];
    case 'unused-commitment':
      return [
        ...(commitments.total > 0
          ? [
              `${[...commitments.unused.keys()].join(', ')}: ${formatMoney(scale(commitments.total, input), input.currency)} a month of commitment covering GPU instances went unused (the bill's CommitmentDiscountStatus Unused rows)${input.commitmentOwner ? `, carried by ${input.commitmentOwner} (showback.commitmentOwner)` : ', shared by the teams it covered'}.`,
            ]
          : []),
        ...(units.length > 0
          ? [
              `${gpuHours((t) => t.idle + t.stalled)} GPU-hours idle or stalled on prepaid capacity (${units.map((u) => `${label(u.instance)}: ${prepaidKind(u)}`).join('; ')}), valued at ${basis}: paid whether it runs or not, so stopping it saves nothing.`,
            ]
          : []),
      ];
  }
}

const CONFIDENCE: Record<WasteCategoryId, Confidence> = {
  idle: 'high',
  stalled: 'medium',
  oversized: 'medium',
  'spot-ready': 'high',
  'spot-after-fix': 'medium',
  'inference-off-hours': 'low',
  'unused-commitment': 'high',
};

/** The category's own confidence, a step lower when the metrics saw less than 80 % of the days the bill charged. */
function confidenceOf(id: WasteCategoryId, units: readonly Unit[]): Confidence {
  const base = CONFIDENCE[id];
  const thin = units.some((u) => u.coverage < 0.8);
  if (!thin) return base;
  return base === 'high' ? 'medium' : 'low';
}

function firstActionOf(id: WasteCategoryId, units: readonly Unit[], commitments: CommitmentShares, input: WasteInput): WasteAction {
  const top = units[0];
  const name = top ? label(top.instance) : '';
  const topMonthly = top ? formatMoney(scale(top.parts[id] ?? 0, input), input.currency) : '';
  switch (id) {
    case 'idle':
      return {
        text: `Stop ${name} when it idles (${topMonthly} a month): its idle alert has the Stop button; a team schedule stops it out of hours.`,
      };
    case 'stalled':
      return { text: `Look at the job on ${name} (${topMonthly} a month): it held GPU memory without computing.` };
    case 'oversized':
      return { text: `Move ${name} to ${top!.target} (${topMonthly} a month): \`burnrate recommend\` has the evidence.` };
    case 'spot-ready':
      return {
        text: `Approve spot migration for ${name} (${topMonthly} a month).`,
        button: {
          action: ACTION_IDS.spotApprove,
          label: `Approve spot: ${name}`.slice(0, 75),
          value: JSON.stringify({ i: top!.instance.instanceId }),
        },
      };
    case 'spot-after-fix':
      return { text: `${name} (${topMonthly} a month): ${top!.blocker}` };
    case 'inference-off-hours':
      return { text: `Scale ${name} down outside its traffic hours (${topMonthly} a month), or let its autoscaler go lower.` };
    case 'unused-commitment': {
      const [largest] = [...commitments.unused].sort((a, b) => b[1] - a[1]);
      if (largest && largest[1] >= (top?.parts[id] ?? 0))
        return { text: `Move on-demand GPU work onto ${largest[0]} before buying more capacity, and size it down at renewal.` };
      const until = top!.instance.prepaid?.until ? ` until ${top!.instance.prepaid.until.slice(0, 10)}` : '';
      return {
        text: `Put work on ${name} (${topMonthly} a month idle on capacity prepaid${until}): stopping it saves nothing; release it or do not renew it at the end.`,
      };
    }
  }
}

function notesOf(input: WasteInput): string[] {
  const billed = new Set(input.billed.map((b) => b.resourceId));
  const unread = new Set(input.unread ?? []);
  const blind = input.instances.filter(
    (i) => billed.has(i.instance.instanceId) && !unread.has(i.instance.instanceId) && (!i.time || i.time.observed === 0),
  );
  const notes: string[] = [];
  if (blind.length > 0)
    notes.push(
      `No GPU metrics for ${countOf(blind.length, 'billed instance')} (${blind
        .slice(0, 5)
        .map((i) => label(i.instance))
        .join(', ')}): their spend counts as GPU spend, none of it as waste.`,
    );
  if (input.monthFactor !== 1) notes.push(`Figures of ${input.period.days} days, scaled to a month (× ${input.monthFactor.toFixed(2)}).`);
  return notes;
}

/** What prepays a unit's capacity, in words. */
function prepaidKind(unit: Unit): string {
  const kind = unit.instance.prepaid?.kind;
  if (kind === 'capacity-block') return 'a Capacity Block';
  if (kind === 'reservation') return 'a capacity reservation';
  return `${Math.round(unit.prepaid * 100)}% of its cost under a Savings Plan or reservation`;
}

function basisOf(units: readonly Unit[]): string {
  const kinds = new Set(units.map((u) => u.basis));
  if (kinds.size === 2) return 'billed rates (list prices for instances not on the bill yet)';
  return kinds.has('billed') ? 'billed rates (effective cost on the bill)' : 'list prices (not on the bill yet)';
}

function scale(amount: number, input: Pick<WasteInput, 'monthFactor'>): number {
  return cents(amount * input.monthFactor);
}

function label(instance: GpuInstance): string {
  return instance.name ?? instance.instanceId;
}

function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
