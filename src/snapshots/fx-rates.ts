import type { Config } from '../config/schema.js';
import type { Deps } from '../deps.js';
import { withBillRates, type FxRates } from '../domain/fx.js';

/** The exchange rates to convert with: burnrate.yml's, completed with the rates the bills used. */
export async function loadFxRates(deps: Pick<Deps, 'config' | 'store'>): Promise<FxRates> {
  return withBillRates(deps.config.fx, await deps.store.spend.billRates());
}

/** The currency a team's figures are shown in: its budget's, else the fx base. */
export function teamCurrency(config: Pick<Config, 'teams' | 'fx'>, team: string): string {
  return config.teams.find((t) => t.id === team)?.budget?.currency ?? config.fx.base;
}
