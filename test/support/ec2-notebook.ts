import type { FakeEc2Instance } from '../fakes/fake-ec2.js';

/**
 * A running g5.xlarge notebook of the vision team at 10.0.1.`last` (private DNS name
 * ip-10-0-1-`last`.ec2.internal, Name box-`last`): the machines the one-instance re-check tests
 * name in each way a metrics source may.
 */
export function visionNotebook(id: string, last: number): FakeEc2Instance {
  return {
    id,
    region: 'us-east-1',
    state: 'running',
    instanceType: 'g5.xlarge',
    privateDnsName: `ip-10-0-1-${last}.ec2.internal`,
    privateIp: `10.0.1.${last}`,
    tags: { Name: `box-${last}`, team: 'vision', 'burnrate:workload': 'notebook' },
  };
}
