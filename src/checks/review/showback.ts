import type { InvoiceLine } from '../../domain/invoice-line.js';
import type { ShowbackLine } from '../../domain/review.js';
import { UNMAPPED, UNTAGGED } from '../../domain/spend.js';
import type { Team } from '../../domain/team.js';
import { cents, roundCents } from './allocate.js';
import { reconcileInvoice, type Reconciliation } from './reconcile-invoice.js';

export type { Reconciliation } from './reconcile-invoice.js';

/** A line of the organisation's bill that no team carries, shown as it is. */
export interface OrganisationLine {
  /** `(unallocated)`, `(unmapped: X)`, `(unused commitment)`, `(shared costs: AWS)`. */
  key: string;
  amount: number;
  /** What to do about it, e.g. "add team X to burnrate.yml". */
  note: string;
}

export interface Showback {
  lines: ShowbackLine[];
  organisation: OrganisationLine[];
  reconciliation: Reconciliation;
  /**
   * Share of the charges with an owner tag, 0–1: of the positive amounts (credits and refunds left
   * out, since an untagged credit would push it past 1), shared costs and unused commitment left out.
   */
  coverage: number;
  /** The month's effective total: team totals and organisation lines add up to it. */
  total: number;
}

export interface ShowbackOptions {
  /** The team that bought the commitments: charged their unused part. */
  commitmentOwner?: string | undefined;
}

/**
 * Showback of a billing period, in one currency, that ties to the invoice:
 *   - each team's **direct** spend (its own charges, at effective cost);
 *   - **shared costs** (untagged tax, and untagged recurring fees of no resource such as support)
 *     spread over the teams in proportion to their spend with the same provider;
 *   - **unused commitment** charged to the commitment's owner, or to the teams the same commitment
 *     covered, in proportion to what it covered of theirs; never spread over everyone;
 *   - **unmapped** spend (an owner tag naming no team) and **unallocated** spend (no owner tag)
 *     shown as they are, with what to do, never spread;
 *   - the **reconciliation** from the effective total to the billed total.
 * Every part is worked out exactly first and rounded once at the end, in whole cents by the largest
 * remainder (teams and organisation lines to the effective total, then each team's parts to its
 * total), so everything adds up to the cent and no line carries another's rounding. Lines that
 * come to $0.00 are left out.
 */
export function showback(lines: readonly InvoiceLine[], teams: readonly Team[], options: ShowbackOptions = {}): Showback {
  const teamIds = new Set(teams.map((t) => t.id));
  const direct = new Map<string, number>();
  const byProvider = new Map<string, Map<string, number>>();
  const commitmentUse = new Map<string, Map<string, number>>();
  const shared = new Map<string, number>();
  const unused = new Map<string, number>();
  const unmapped = new Map<string, number>();
  let unallocated = 0;
  let tagged = 0;
  let taggable = 0;
  for (const line of lines) {
    const status = line.commitmentStatus?.toLowerCase() ?? null;
    if (status === 'unused') {
      add(unused, line.commitmentId ?? '', line.effective);
      continue;
    }
    if (line.team === UNTAGGED && (line.chargeCategory === 'Tax' || (!line.hasResource && line.kind === 'recurring'))) {
      add(shared, line.provider, line.effective);
      continue;
    }
    const charge = Math.max(line.effective, 0);
    taggable += charge;
    if (line.team === UNTAGGED) {
      unallocated += line.effective;
      continue;
    }
    tagged += charge;
    if (!teamIds.has(line.team)) {
      add(unmapped, line.ownerTag ?? (line.team === UNMAPPED ? '(no tag value)' : line.team), line.effective);
      continue;
    }
    add(direct, line.team, line.effective);
    add(byProvider.get(line.provider) ?? byProvider.set(line.provider, new Map()).get(line.provider)!, line.team, line.effective);
    if (status === 'used' && line.commitmentId)
      add(
        commitmentUse.get(line.commitmentId) ?? commitmentUse.set(line.commitmentId, new Map()).get(line.commitmentId)!,
        line.team,
        line.effective,
      );
  }

  // Exact amounts first: shared costs and unused commitment spread in proportion, not yet rounded.
  const organisation: OrganisationLine[] = [];
  const sharedOf = new Map<string, number>();
  for (const [provider, amount] of shared) {
    const weights = positive(byProvider.get(provider));
    if (weights.size === 0)
      organisation.push({ key: `(shared costs: ${provider})`, amount, note: `no team has ${provider} spend to share it by` });
    else spread(sharedOf, amount, weights);
  }
  const commitmentOf = new Map<string, number>();
  for (const [id, amount] of unused) {
    const owner = options.commitmentOwner && teamIds.has(options.commitmentOwner) ? options.commitmentOwner : null;
    const weights = owner ? new Map([[owner, 1]]) : positive(commitmentUse.get(id));
    if (weights.size === 0)
      organisation.push({
        key: '(unused commitment)',
        amount,
        note: `${id || 'a commitment'} covered no team's spend: set showback.commitmentOwner`,
      });
    else spread(commitmentOf, amount, weights);
  }
  for (const [tag, amount] of [...unmapped].sort((a, b) => b[1] - a[1]))
    organisation.push({ key: `(unmapped: ${tag})`, amount, note: `add team ${tag} to burnrate.yml (or to a team's match list)` });
  if (unallocated !== 0) organisation.push({ key: '(unallocated)', amount: unallocated, note: 'no owner tag: tag these resources' });

  // Then one rounding: teams and organisation lines to the effective total, each team's parts to its total.
  const effective = sum(lines.map((l) => l.effective));
  const parts = (team: string) => [direct.get(team) ?? 0, sharedOf.get(team) ?? 0, commitmentOf.get(team) ?? 0] as const;
  const rounded = roundCents(
    new Map([
      ...teams.map((t) => [`team:${t.id}`, sum(parts(t.id))] as const),
      ...organisation.map((o, i) => [`organisation:${i}`, o.amount] as const),
    ]),
    Math.round(cents(effective) * 100),
  );
  const showbackLines: ShowbackLine[] = teams.map((team) => {
    const total = rounded.get(`team:${team.id}`)!;
    const [own, share, commitment] = parts(team.id);
    const split = roundCents(
      new Map([
        ['direct', own],
        ['shared', share],
        ['commitment', commitment],
      ]),
      Math.round(total * 100),
    );
    return {
      team: team.id,
      teamName: team.name ?? team.id,
      direct: split.get('direct')!,
      shared: split.get('shared')!,
      commitment: split.get('commitment')!,
      total,
      share: effective !== 0 ? total / effective : 0,
      budget: team.budget?.monthly ?? null,
    };
  });
  const organisationLines = organisation.map((o, i) => ({ ...o, amount: rounded.get(`organisation:${i}`)! }));
  const shown = (amounts: readonly number[]) => amounts.some((a) => a !== 0);
  return {
    lines: showbackLines
      .filter((l) => shown([l.total, l.direct, l.shared, l.commitment ?? 0]))
      .sort((a, b) => b.total - a.total || a.team.localeCompare(b.team)),
    organisation: organisationLines.filter((o) => shown([o.amount])),
    reconciliation: reconcileInvoice(lines),
    coverage: taggable > 0 ? tagged / taggable : 1,
    total: cents(effective),
  };
}

/** Adds an amount's exact proportional parts (weights all positive) to each key's running total. */
function spread(into: Map<string, number>, amount: number, weights: ReadonlyMap<string, number>): void {
  const total = sum([...weights.values()]);
  for (const [key, weight] of weights) add(into, key, (amount * weight) / total);
}

function add(map: Map<string, number>, key: string, amount: number): void {
  map.set(key, (map.get(key) ?? 0) + amount);
}

function positive(weights: ReadonlyMap<string, number> | undefined): Map<string, number> {
  return new Map([...(weights ?? [])].filter(([, w]) => w > 0));
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
