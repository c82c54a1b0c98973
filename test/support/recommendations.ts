import type { Recommendation } from '../../src/domain/recommendation.js';

/** Recommendations as the demo makes them: research-train-fra to spot, dan-notebook right-sized. */
export const spot: Recommendation = {
  id: 'spot:i-087e2d6c2c7b10912',
  kind: 'spot',
  instanceId: 'i-087e2d6c2c7b10912',
  name: 'research-train-fra',
  team: 'ml-research',
  provider: 'aws',
  region: 'eu-central-1',
  current: { instanceType: 'p4d.24xlarge', lifecycle: 'on-demand', hourly: 27.43298 },
  proposed: { instanceType: 'p4d.24xlarge', lifecycle: 'spot', hourly: 18.213 },
  hoursPerMonth: 601.5,
  monthlySaving: 5545.39,
  evidence: [
    'research-train-fra runs training on on-demand p4d.24xlarge and declares checkpointing (checkpoint=true, every 30m).',
    'Spot p4d.24xlarge in eu-central-1: $18.21/h against $27.43/h on demand (34% less).',
  ],
  confidence: 'high',
};
export const rightSize: Recommendation = {
  ...spot,
  id: 'right-size:i-0ce418c7375507f60',
  kind: 'right-size',
  instanceId: 'i-0ce418c7375507f60',
  name: 'dan-notebook <gpu> & co',
  current: { instanceType: 'g6e.2xlarge', lifecycle: 'on-demand', hourly: 2.24208 },
  proposed: { instanceType: 'g4dn.xlarge', lifecycle: 'on-demand', hourly: 0.526 },
  monthlySaving: 826.46,
  evidence: ['dan-notebook used at most 12.5 GiB of its 48 GiB GPU memory (26%) and 8% GPU utilisation on average.'],
};
