import type { GpuInstance } from './gpu-inventory.js';

/** A page about an instance: its cloud console, its GPU dashboard. */
export interface InstanceLink {
  label: string;
  url: string;
}

/**
 * Where people look at an instance: the AWS console's page of an EC2 instance, the Azure portal's
 * page of an Azure VM, and the DCGM
 * dashboard of `links.grafana` (a URL template with {instance}, {host} and {gpu}; an alert is about
 * a whole instance, so {gpu} is "All", Grafana's word for every value). GCP instances need their
 * project and zone for a console link, which the inventory does not keep: they get the dashboard only.
 */
export function instanceLinks(
  instance: Pick<GpuInstance, 'provider' | 'region' | 'instanceId' | 'hostNames'>,
  grafana?: string,
): InstanceLink[] {
  const links: InstanceLink[] = [];
  if (instance.provider === 'aws' && /^i-[0-9a-f]+$/.test(instance.instanceId) && /^[a-z]{2}(-[a-z]+)+-\d$/.test(instance.region)) {
    const r = instance.region;
    links.push({
      label: 'Open in AWS console',
      url: `https://${r}.console.aws.amazon.com/ec2/home?region=${r}#InstanceDetails:instanceId=${instance.instanceId}`,
    });
  }
  // An Azure VM is named by its resource id, which is also the portal's address of it.
  if (
    instance.provider === 'azure' &&
    /^\/subscriptions\/[^/]+\/resourcegroups\/[^/]+\/providers\/microsoft\.compute\/virtualmachines\/[^/]+$/i.test(instance.instanceId)
  )
    links.push({ label: 'Open in Azure portal', url: `https://portal.azure.com/#resource${instance.instanceId}/overview` });
  if (grafana) {
    const values: Record<string, string> = {
      instance: instance.instanceId,
      host: instance.hostNames?.[0] ?? instance.instanceId,
      gpu: 'All',
    };
    links.push({
      label: 'GPU dashboard',
      url: grafana.replace(/\{(instance|host|gpu)\}/g, (_, key: string) => encodeURIComponent(values[key]!)),
    });
  }
  return links;
}
