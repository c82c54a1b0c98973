import type { Provider } from '../provider.js';
import { lazySpendSource } from '../lazy-source.js';

/** FOCUS (and CUR) files: any cloud's bill, imported from disk. */
export const focus: Provider = {
  id: 'focus',
  configTypes: { sources: ['focus'] },
  sources: (c) => {
    if (c.type !== 'focus') throw new Error(`not a FOCUS source: ${c.type}`);
    const id = c.id ?? 'focus';
    // DuckDB is loaded on the first pull: a command that only reads the store never loads it.
    const source = lazySpendSource(id, 'focus', async () => {
      const { FocusSource } = await import('./focus-source.js');
      return new FocusSource({ id, paths: c.paths, lineCostCeiling: c.lineCostCeiling, dimensions: c.dimensions });
    });
    return { spend: [source], budgets: [] };
  },
};
