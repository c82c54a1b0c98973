import type { Deps } from '../deps.js';
import { teamResolver } from '../domain/ownership.js';
import type { PullContext } from '../sources/port.js';
import type { ImportSummary } from '../store/store.js';

export interface RefreshResult {
  source: string;
  ok: boolean;
  summary?: ImportSummary;
  error?: string;
}

/**
 * Pulls every configured source and stores what it returns. Each source is its own transaction:
 * one failing source leaves its previous data in place and does not stop the others.
 */
export async function refreshSources(deps: Deps, onProgress?: PullContext['onProgress']): Promise<RefreshResult[]> {
  const ctx: PullContext = {
    now: deps.clock(),
    tagKeys: deps.config.ownership.tagKeys,
    unitTagKeys: deps.config.unitCosts.tagKeys,
    resolveTeam: teamResolver(deps.config.teams),
    ...(onProgress ? { onProgress } : {}),
  };
  const results: RefreshResult[] = [];
  for (const source of deps.sources) {
    try {
      const summary = await deps.store.importBatches(await source.pull(ctx));
      deps.log.info({ source: source.id, ...summary }, 'source refreshed');
      results.push({ source: source.id, ok: true, summary });
    } catch (error) {
      const message = (error as Error).message;
      deps.log.error({ source: source.id, err: message }, 'source refresh failed');
      results.push({ source: source.id, ok: false, error: message });
    }
  }
  return results;
}
