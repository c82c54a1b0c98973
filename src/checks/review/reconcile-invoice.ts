import type { InvoiceLine } from '../../domain/invoice-line.js';
import { cents, roundCents } from './allocate.js';

/**
 * Billed (the invoice) = effective (what the showback shows) + the terms between them, to the cent.
 * Every line of the bill falls in exactly one term (billed − effective of its lines), so nothing is
 * counted twice and no "rounding" line is needed to make the terms meet.
 */
export interface Reconciliation {
  billed: number;
  effective: number;
  /** Purchases billed now and amortised over their term (upfront commitment fees, one-time purchases). */
  purchases: number;
  /**
   * The commitment's lines of unused capacity (status Unused): a recurring commitment fee billed in
   * full, of which only the unused part is shown as a line (the used part is in covered usage), or
   * a provider's own unused line billed at 0.
   */
  unusedCommitment: number;
  /** Usage and fees shown at a rate other than billed: commitment-covered usage at its amortised rate, discounts. */
  amortisedUsage: number;
}

type Term = 'purchases' | 'unusedCommitment' | 'amortisedUsage';

/**
 * The term a line belongs to. A CUR recurring commitment fee (SavingsPlanRecurringFee, RIFee) is
 * both a Purchase and Unused: it counts once, as unused commitment, which is where its effective
 * cost (the unused part) is shown.
 */
function termOf(line: InvoiceLine): Term {
  if (line.commitmentStatus?.toLowerCase() === 'unused') return 'unusedCommitment';
  if (line.chargeCategory === 'Purchase') return 'purchases';
  return 'amortisedUsage';
}

/**
 * The reconciliation of a billing period's lines (one currency). The billed and effective totals are
 * each rounded once; the three terms are rounded by the largest remainder to exactly their
 * difference, so each is within a cent of its exact sum and they meet the billed total to the cent.
 */
export function reconcileInvoice(lines: readonly InvoiceLine[]): Reconciliation {
  const exact = new Map<Term, number>([
    ['purchases', 0],
    ['unusedCommitment', 0],
    ['amortisedUsage', 0],
  ]);
  let billed = 0;
  let effective = 0;
  for (const line of lines) {
    billed += line.billed;
    effective += line.effective;
    const term = termOf(line);
    exact.set(term, exact.get(term)! + line.billed - line.effective);
  }
  const terms = roundCents(exact, Math.round(cents(billed) * 100) - Math.round(cents(effective) * 100));
  return {
    billed: cents(billed),
    effective: cents(effective),
    purchases: terms.get('purchases')!,
    unusedCommitment: terms.get('unusedCommitment')!,
    amortisedUsage: terms.get('amortisedUsage')!,
  };
}
