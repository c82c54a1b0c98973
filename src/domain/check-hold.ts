import { describeStale, type StaleSource } from './staleness.js';

/**
 * Why a team's budget check was held: a source of its spend failed to refresh (its numbers stop
 * short), or its spend is in a currency burnrate.yml gives no rate for (amounts in two currencies
 * are never added). Each reason says what to do, so `burnrate check` can name the team, the cause
 * and the fix instead of a bare "held".
 */
export interface CheckHold {
  team: string;
  reasons: HoldReason[];
}

/** One cause of a hold: what is wrong (`problem`) and what to do (`fix`), in words and as data. */
export type HoldReason = { problem: string; fix: string } & (
  | { kind: 'stale-source'; source: string; label: string; ageHours: number | null; error: string }
  | { kind: 'missing-rate'; currencies: string[]; budgetCurrency: string }
);

/** The setting that gives each currency a rate: `fx: { base: USD, asOf: YYYY-MM-DD, rates: { JPY: <USD per JPY> } }`. */
export function fxRatesSetting(base: string, currencies: readonly string[]): string {
  const rates = currencies.map((c) => `${c}: <${base} per ${c}>`).join(', ');
  return `fx: { base: ${base}, asOf: YYYY-MM-DD, rates: { ${rates} } }`;
}

/** A team's hold for a failing source. */
export function staleHold(source: StaleSource): HoldReason {
  return {
    kind: 'stale-source',
    source: source.source,
    label: source.label,
    ageHours: source.ageHours,
    error: source.error,
    problem: `${describeStale(source)} (refresh failing: ${source.error})`,
    fix: `fix the error of ${source.label}; checks resume at the first refresh that works`,
  };
}

/** A team's hold for spend in currencies without a rate to its budget currency (`base`: fx.base). */
export function rateHold(currencies: readonly string[], budgetCurrency: string, base: string): HoldReason {
  return {
    kind: 'missing-rate',
    currencies: [...currencies],
    budgetCurrency,
    problem: `spend in ${currencies.join(', ')} has no exchange rate to ${budgetCurrency}`,
    fix: `add to burnrate.yml: ${fxRatesSetting(base, currencies)}`,
  };
}

/** One line per reason, for the command line: "ml: held, spend in JPY has no exchange rate to USD; add to burnrate.yml: ...". */
export function describeHold(hold: CheckHold): string[] {
  return hold.reasons.map((reason) => `${hold.team}: held, ${reason.problem}; ${reason.fix}`);
}
