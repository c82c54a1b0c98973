import type { Deps } from '../deps.js';
import { teamResolver } from '../domain/ownership.js';
import { isBurnrateError } from '../domain/errors.js';
import type { PullContext } from '../ports/pull-context.js';
import type { ImportSummary } from '../domain/spend-import.js';

export interface RefreshResult {
  source: string;
  ok: boolean;
  summary?: ImportSummary;
  /** Cloud budgets listed, for a budget source. */
  budgets?: number;
  error?: string;
}

/**
 * Pulls every configured source and stores what it returns, then lists the clouds' budgets. Each
 * source is its own transaction: one failing source leaves its previous data in place, is recorded
 * as failed (its data is stale until it refreshes again) and does not stop the others.
 */
export async function refreshSources(deps: Deps, onProgress?: PullContext['onProgress']): Promise<RefreshResult[]> {
  const now = deps.clock();
  const stored = new Map((await deps.store.freshness.list()).map((f) => [f.source, f.dataThrough]));
  const ctx: PullContext = {
    now,
    tagKeys: deps.config.ownership.tagKeys,
    unitTagKeys: deps.config.unitCosts.tagKeys,
    resolveTeam: teamResolver(deps.config.teams),
    dataThrough: (source) => stored.get(source) ?? null,
    ...(onProgress ? { onProgress } : {}),
  };
  const results: RefreshResult[] = [];
  const attempt = async (source: string, run: () => Promise<Omit<RefreshResult, 'source' | 'ok'>>) => {
    try {
      const done = await run();
      deps.log.info({ source, ...done.summary, budgets: done.budgets }, 'source refreshed');
      results.push({ source, ok: true, ...done });
    } catch (error) {
      // BurnrateErrors carry the hint (which permission, which key); anything else is summed up by its message.
      const message = isBurnrateError(error) ? error.describe().replace(/\n/g, ' ') : (error as Error).message;
      deps.log.error({ source, err: message }, 'source refresh failed');
      await deps.store.freshness.recordFailure(source, message, now);
      results.push({ source, ok: false, error: message });
    }
  };
  for (const source of deps.sources) {
    await attempt(source.id, async () => {
      const batches = await source.pull(ctx);
      for (const warning of batches.flatMap((b) => b.warnings ?? []))
        deps.log.warn({ source: source.id, warning }, 'source data looks wrong');
      return { summary: await deps.store.importBatches(batches, now) };
    });
  }
  for (const source of deps.budgetSources ?? []) {
    await attempt(source.id, async () => {
      const budgets = await source.listBudgets(ctx);
      await deps.store.cloudBudgets.replace(source.id, budgets, now);
      return { budgets: budgets.length };
    });
  }
  return results;
}
