import type { Provider } from '../provider.js';
import { demoGpu } from './demo-gpu.js';
import { DemoSource } from './demo-source.js';

/** The embedded demo organisation: its bill, and its GPU fleet (machines, and a cluster when asked). */
export const demo: Provider = {
  id: 'demo',
  configTypes: { sources: ['demo'] },
  sources: (c) => {
    if (c.type !== 'demo') throw new Error(`not a demo source: ${c.type}`);
    return { spend: [new DemoSource({ seed: c.seed, days: c.days, ...(c.id ? { id: c.id } : {}) })], budgets: [] };
  },
  fleet: (c, config) => {
    if (c.type !== 'demo') throw new Error(`not a demo source: ${c.type}`);
    return demoGpu(c, config);
  },
};
