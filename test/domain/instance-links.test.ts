import { describe, expect, it } from 'vitest';
import { instanceLinks } from '../../src/domain/instance-links.js';

describe('where an instance can be looked at', () => {
  it('links an EC2 instance to its page in the AWS console of its region', () => {
    expect(instanceLinks({ provider: 'aws', region: 'eu-west-1', instanceId: 'i-0abc123' })).toEqual([
      {
        label: 'Open in AWS console',
        url: 'https://eu-west-1.console.aws.amazon.com/ec2/home?region=eu-west-1#InstanceDetails:instanceId=i-0abc123',
      },
    ]);
  });

  it('fills the DCGM dashboard template, encoding each value; a GCP instance gets the dashboard only', () => {
    const grafana = 'https://grafana.example.com/d/dcgm?var-instance={instance}&var-host={host}&var-gpu={gpu}';
    expect(instanceLinks({ provider: 'gcp', region: 'us-central1', instanceId: '4242', hostNames: ['gpu-node a'] }, grafana)).toEqual([
      { label: 'GPU dashboard', url: 'https://grafana.example.com/d/dcgm?var-instance=4242&var-host=gpu-node%20a&var-gpu=All' },
    ]);
  });

  it('links an Azure VM to its page in the Azure portal, whose address is its resource id; nothing for an id that is not a VM', () => {
    const id =
      '/subscriptions/0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17/resourcegroups/cv-labeling/providers/microsoft.compute/virtualmachines/cv-label-t4';
    expect(instanceLinks({ provider: 'azure', region: 'eastus', instanceId: id })).toEqual([
      { label: 'Open in Azure portal', url: `https://portal.azure.com/#resource${id}/overview` },
    ]);
    expect(instanceLinks({ provider: 'azure', region: 'eastus', instanceId: `${id}/../../x?y` })).toEqual([]);
  });

  it('makes no console link of an id or region that is not one', () => {
    expect(instanceLinks({ provider: 'aws', region: 'us-east-1', instanceId: 'i-1 <x>' })).toEqual([]);
    expect(instanceLinks({ provider: 'aws', region: 'mars', instanceId: 'i-0abc' })).toEqual([]);
  });
});
