import type { InvoiceLine } from '../../domain/invoice-line.js';
import type { ShowbackLine } from '../../domain/review.js';
import { UNMAPPED, UNTAGGED } from '../../domain/spend.js';
import type { Team } from '../../domain/team.js';
import { allocateCents, cents } from './allocate.js';

/** A line of the organisation's bill that no team carries, shown as it is. */
export interface OrganisationLine {
  /** `(unallocated)`, `(unmapped: X)`, `(unused commitment)`, `(shared costs: AWS)`. */
  key: string;
  amount: number;
  /** What to do about it, e.g. "add team X to burnrate.yml". */
  note: string;
}

/** Billed (the invoice) − effective (what teams are shown) = its parts, to the cent. */
export interface Reconciliation {
  billed: number;
  effective: number;
  /** Purchases billed now and amortised over their term (upfront commitments). */
  purchases: number;
  /** Unused commitment: billed with the purchase or fee, shown here at its amortised cost. */
  unusedCommitment: number;
  /** Usage and fees shown at a rate other than billed: commitment-covered usage at its amortised rate, discounts. */
  amortisedUsage: number;
  /** What is left: rounding, to the cent. */
  rounding: number;
}

export interface Showback {
  lines: ShowbackLine[];
  organisation: OrganisationLine[];
  reconciliation: Reconciliation;
  /** Share of spend with an owner tag (shared costs and unused commitment left out), 0–1. */
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
 * Spreads are made in whole cents (largest remainder), so everything adds up to the cent.
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
    taggable += line.effective;
    if (line.team === UNTAGGED) {
      unallocated += line.effective;
      continue;
    }
    tagged += line.effective;
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

  const organisation: OrganisationLine[] = [];
  const sharedOf = new Map<string, number>();
  for (const [provider, amount] of shared) {
    const weights = positive(byProvider.get(provider));
    if (weights.size === 0)
      organisation.push({
        key: `(shared costs: ${provider})`,
        amount: cents(amount),
        note: `no team has ${provider} spend to share it by`,
      });
    else for (const [team, part] of allocateCents(amount, weights)) add(sharedOf, team, part);
  }
  const commitmentOf = new Map<string, number>();
  for (const [id, amount] of unused) {
    const owner = options.commitmentOwner && teamIds.has(options.commitmentOwner) ? options.commitmentOwner : null;
    const weights = owner ? new Map([[owner, 1]]) : positive(commitmentUse.get(id));
    if (weights.size === 0)
      organisation.push({
        key: '(unused commitment)',
        amount: cents(amount),
        note: `${id || 'a commitment'} covered no team's spend: set showback.commitmentOwner`,
      });
    else for (const [team, part] of allocateCents(amount, weights)) add(commitmentOf, team, part);
  }
  for (const [tag, amount] of [...unmapped].sort((a, b) => b[1] - a[1]))
    organisation.push({
      key: `(unmapped: ${tag})`,
      amount: cents(amount),
      note: `add team ${tag} to burnrate.yml (or to a team's match list)`,
    });
  if (unallocated !== 0) organisation.push({ key: '(unallocated)', amount: cents(unallocated), note: 'no owner tag: tag these resources' });

  const effective = sum(lines.map((l) => l.effective));
  const showbackLines = teams.map((team) => {
    const own = cents(direct.get(team.id) ?? 0);
    const share = cents(sharedOf.get(team.id) ?? 0);
    const commitment = cents(commitmentOf.get(team.id) ?? 0);
    const total = cents(own + share + commitment);
    return {
      team: team.id,
      teamName: team.name ?? team.id,
      direct: own,
      shared: share,
      commitment,
      total,
      share: effective !== 0 ? total / effective : 0,
      budget: team.budget?.monthly ?? null,
    };
  });
  showbackLines.sort((a, b) => b.total - a.total || a.team.localeCompare(b.team));
  // Lines rounded one by one may miss the total by a cent or two: the largest team's direct spend
  // takes the difference, so the statement adds up to the cent.
  const drift = toCents(effective) - sum(showbackLines.map((l) => toCents(l.total))) - sum(organisation.map((o) => toCents(o.amount)));
  const largest = showbackLines[0];
  if (drift !== 0 && largest) {
    largest.direct = cents(largest.direct + drift / 100);
    largest.total = cents(largest.total + drift / 100);
  }
  return {
    lines: showbackLines,
    organisation,
    reconciliation: reconcile(lines, showbackLines, organisation),
    coverage: taggable !== 0 ? tagged / taggable : 1,
    total: cents(effective),
  };
}

function reconcile(
  lines: readonly InvoiceLine[],
  teams: readonly ShowbackLine[],
  organisation: readonly OrganisationLine[],
): Reconciliation {
  const billed = cents(sum(lines.map((l) => l.billed)));
  const shown = cents(sum(teams.map((t) => t.total)) + sum(organisation.map((o) => o.amount)));
  const purchases = cents(sum(lines.filter((l) => l.chargeCategory === 'Purchase').map((l) => l.billed - l.effective)));
  const isUnused = (l: InvoiceLine) => l.commitmentStatus?.toLowerCase() === 'unused';
  const unusedCommitment = cents(sum(lines.filter(isUnused).map((l) => l.billed - l.effective)));
  const amortisedUsage = cents(
    sum(lines.filter((l) => l.chargeCategory !== 'Purchase' && !isUnused(l)).map((l) => l.billed - l.effective)),
  );
  return {
    billed,
    effective: shown,
    purchases,
    unusedCommitment,
    amortisedUsage,
    // In whole cents, so the terms add up to the billed total exactly.
    rounding: (toCents(billed) - toCents(shown) - toCents(purchases) - toCents(unusedCommitment) - toCents(amortisedUsage)) / 100,
  };
}

/** An amount already in cents as a whole number of cents. */
function toCents(amount: number): number {
  return Math.round(amount * 100);
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
