import type { Deps } from '../deps.js';
import { withBillRates, type FxRates } from '../domain/fx.js';

/** The exchange rates to convert with: burnrate.yml's, completed with the rates the bills used. */
export async function loadFxRates(deps: Pick<Deps, 'config' | 'store'>): Promise<FxRates> {
  return withBillRates(deps.config.fx, await deps.store.spend.billRates());
}
