/**
 * What every surface says of the currencies a figure left out for want of a rate: the amounts in
 * them are not added (yen are never counted as dollars), and the reader is told which and what to
 * add. Written once so the waste diagnosis, the billed rate, the Kubernetes node cost, the idle
 * alert and the savings ledger say it the same way. Null when nothing was left out.
 */
export function leftOutNote(currencies: readonly string[], to: string): string | null {
  if (currencies.length === 0) return null;
  return `Charges in ${[...new Set(currencies)].sort().join(', ')} are left out: no rate to ${to}. Add it under fx in burnrate.yml.`;
}
