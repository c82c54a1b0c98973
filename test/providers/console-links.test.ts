import { describe, expect, it } from 'vitest';
import { dashboardLink } from '../../src/domain/instance-links.js';
import { consoleLinkOf, stopWordingOf } from '../../src/providers/registry.js';

const AZURE_VM =
  '/subscriptions/0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17/resourcegroups/cv-labeling/providers/microsoft.compute/virtualmachines/cv-label-t4';

describe('where an instance can be looked at', () => {
  it('links an EC2 instance to its page in the AWS console of its region, the region from the inventory or the ARN', () => {
    const url = 'https://eu-west-1.console.aws.amazon.com/ec2/home?region=eu-west-1#InstanceDetails:instanceId=i-0abc1234';
    expect(consoleLinkOf({ id: 'i-0abc1234', region: 'eu-west-1' })).toEqual({ label: 'Open in AWS console', url });
    expect(consoleLinkOf({ id: 'arn:aws:ec2:eu-west-1:123456789012:instance/i-0abc1234' })).toEqual({ label: 'Open in AWS console', url });
  });

  it('links an Azure VM to its page in the Azure portal, whose address is its resource id; nothing for an id that is not a VM', () => {
    expect(consoleLinkOf({ id: AZURE_VM, region: 'eastus' })).toEqual({
      label: 'Open in Azure portal',
      url: `https://portal.azure.com/#resource${AZURE_VM}/overview`,
    });
    expect(consoleLinkOf({ id: `${AZURE_VM}/../../x?y`, region: 'eastus' })).toBeUndefined();
  });

  it('links a Compute Engine VM by the project and zone of its id and its name, given in the id or beside a numeric id', () => {
    const url =
      'https://console.cloud.google.com/compute/instancesDetail/zones/us-central1-a/instances/llm-pretrain-a3-0?project=ml-research';
    const link = { label: 'Open in Google Cloud console', url };
    expect(
      consoleLinkOf({
        id: '//compute.googleapis.com/projects/ml-research/zones/us-central1-a/instances/6661818903810209354',
        name: 'llm-pretrain-a3-0',
      }),
    ).toEqual(link);
    expect(consoleLinkOf({ id: 'projects/ml-research/zones/us-central1-a/instances/llm-pretrain-a3-0' })).toEqual(link);
    // A numeric id alone (or a bare one, as a bill without project and zone gives it) does not say which VM page to open.
    expect(
      consoleLinkOf({ id: '//compute.googleapis.com/projects/ml-research/zones/us-central1-a/instances/6661818903810209354' }),
    ).toBeUndefined();
    expect(consoleLinkOf({ id: '6661818903810209354', name: 'llm-pretrain-a3-0', region: 'us-central1' })).toBeUndefined();
  });

  it('makes no console link of an id or region that is not one', () => {
    expect(consoleLinkOf({ id: 'i-1 <x>', region: 'us-east-1' })).toBeUndefined();
    expect(consoleLinkOf({ id: 'i-0abc1234', region: 'mars' })).toBeUndefined();
    expect(consoleLinkOf({ id: 'projects/p-1234/zones/us-central1-a/instances/x"><script>' })).toBeUndefined();
  });

  it('fills the DCGM dashboard template, encoding each value', () => {
    const grafana = 'https://grafana.example.com/d/dcgm?var-instance={instance}&var-host={host}&var-gpu={gpu}';
    expect(dashboardLink({ instanceId: '4242', hostNames: ['gpu-node a'] }, grafana)).toEqual({
      label: 'GPU dashboard',
      url: 'https://grafana.example.com/d/dcgm?var-instance=4242&var-host=gpu-node%20a&var-gpu=All',
    });
    expect(dashboardLink({ instanceId: '4242' }, undefined)).toBeUndefined();
  });
});

describe('what Stop does, in each cloud’s words', () => {
  it('says an Azure VM is deallocated and why; any other instance gets the plain stop', () => {
    expect(stopWordingOf(AZURE_VM)).toEqual({
      verb: 'deallocates Azure VM',
      why: 'a VM stopped but still allocated keeps billing compute',
    });
    expect(stopWordingOf('i-0abc1234')).toBeUndefined();
    expect(
      stopWordingOf('//compute.googleapis.com/projects/ml-research/zones/us-central1-a/instances/6661818903810209354'),
    ).toBeUndefined();
  });
});
