import type { Provider } from '../provider.js';
import { FocusSource } from './focus-source.js';

/** FOCUS (and CUR) files: any cloud's bill, imported from disk. */
export const focus: Provider = {
  id: 'focus',
  configTypes: { sources: ['focus'] },
  sources: (c) => {
    if (c.type !== 'focus') throw new Error(`not a FOCUS source: ${c.type}`);
    return {
      spend: [new FocusSource({ id: c.id ?? 'focus', paths: c.paths, lineCostCeiling: c.lineCostCeiling, dimensions: c.dimensions })],
      budgets: [],
    };
  },
};
