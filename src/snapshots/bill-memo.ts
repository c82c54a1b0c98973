import type { Deps } from '../deps.js';
import type { Store } from '../store/store.js';

/**
 * A read of the bill kept until it can have changed: until a source refreshes (the freshness
 * table) or the window's first day moves. The idle check asks every few minutes; the bill changes
 * daily. `key` tells reads of different things apart (the instances asked for).
 */
export function billMemo<T>(): (deps: Pick<Deps, 'store'>, since: string, key: string, read: () => Promise<T>) => Promise<T> {
  const cache = new WeakMap<Store, { key: string; value: Promise<T> }>();
  return async (deps, since, key, read) => {
    const full = `${since}|${key}|${JSON.stringify(await deps.store.freshness.list())}`;
    const cached = cache.get(deps.store);
    if (cached?.key === full) return cached.value;
    const value = read();
    cache.set(deps.store, { key: full, value });
    value.catch(() => cache.delete(deps.store));
    return value;
  };
}
