import { showback, type Showback } from '../checks/review/showback.js';
import type { Deps } from '../deps.js';
import { inCurrency, type FxRates } from '../domain/fx.js';
import { loadFxRates } from './fx-rates.js';

/** A billing period's showback, as every surface shows it (the showback command, the monthly review). */
export interface MonthShowback {
  result: Showback;
  /** The fx base currency: every amount in it, at the billing period's own rate. */
  currency: string;
  /** Currencies of the period with no rate: the showback leaves their lines out, so callers refuse or omit it. */
  missing: string[];
}

/** The one read of a billing period's showback: its invoice lines at the period's rate, allocated to teams. */
export async function loadMonthShowback(deps: Pick<Deps, 'config' | 'store'>, month: string, rates?: FxRates): Promise<MonthShowback> {
  const currency = deps.config.fx.base;
  const [invoice, fx] = await Promise.all([deps.store.spend.invoiceLines(month), rates ? Promise.resolve(rates) : loadFxRates(deps)]);
  const { lines, missing } = inCurrency(invoice, currency, fx, month);
  return {
    result: showback(lines, deps.config.teams, { commitmentOwner: deps.config.showback.commitmentOwner }),
    currency,
    missing,
  };
}
