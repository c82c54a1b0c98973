import type { SourceFailure, SourceFreshness } from './source-freshness.js';

/** A source whose last refresh failed: its stored data is as old as its last good refresh. */
export interface StaleSource {
  source: string;
  /** "AWS", "Google Cloud budgets", "FOCUS (exports-eu)": what a user calls it. */
  label: string;
  /** Hours since the last successful refresh, rounded down; null when it never worked. */
  ageHours: number | null;
  failedAt: string;
  error: string;
  /** Whether it feeds spend (budget checks rely on it) or only lists cloud budgets. */
  kind: 'spend' | 'budgets';
}

const NAMES: Record<string, string> = { aws: 'AWS', gcp: 'Google Cloud', focus: 'FOCUS', demo: 'demo' };

/** The sources whose last refresh failed, oldest data first. */
export function staleSources(
  config: { sources: readonly { id?: string | undefined; type: string }[] },
  freshness: readonly SourceFreshness[],
  failures: readonly SourceFailure[],
  now: Date,
): StaleSource[] {
  const refreshed = new Map(freshness.map((f) => [f.source, f.refreshedAt]));
  const configured = new Map(config.sources.map((s) => [s.id ?? s.type, s.type]));
  const stale = failingSources(config, failures).map((failure): StaleSource => {
    const budgets = failure.source.endsWith(':budgets');
    const id = idOf(failure.source);
    const type = configured.get(id) ?? id;
    const name = NAMES[type] ?? type;
    const label = `${id === type ? name : `${name} (${id})`}${budgets ? ' budgets' : ''}`;
    const last = refreshed.get(failure.source);
    const ageHours = last ? Math.floor((now.getTime() - new Date(last).getTime()) / 3_600_000) : null;
    return {
      source: failure.source,
      label,
      ageHours,
      failedAt: failure.failedAt,
      error: failure.error,
      kind: budgets ? 'budgets' : 'spend',
    };
  });
  return stale.sort((a, b) => (b.ageHours ?? Infinity) - (a.ageHours ?? Infinity) || a.source.localeCompare(b.source));
}

/** The failures of sources burnrate.yml still lists: a source removed from it no longer refreshes, and no longer holds anyone's checks. */
export function failingSources(
  config: { sources: readonly { id?: string | undefined; type: string }[] },
  failures: readonly SourceFailure[],
): SourceFailure[] {
  const configured = new Set(config.sources.map((s) => s.id ?? s.type));
  return failures.filter((f) => configured.has(idOf(f.source)));
}

function idOf(source: string): string {
  return source.endsWith(':budgets') ? source.slice(0, -':budgets'.length) : source;
}

/** "AWS data 26 h old", "Google Cloud data not loaded yet". */
export function describeStale(stale: StaleSource): string {
  if (stale.ageHours === null) return `${stale.label} data not loaded yet`;
  return `${stale.label} data ${stale.ageHours} h old`;
}
