import type { ConsoleTarget, InstanceLink } from '../../../domain/instance-links.js';

/**
 * A Compute Engine VM as the bill and the inventory name it: `//compute.googleapis.com/projects/P/zones/Z/instances/N`
 * or `projects/P/zones/Z/instances/N`, N its name or its numeric id.
 */
const VM =
  /^(?:\/\/compute\.googleapis\.com\/)?projects\/([a-z][a-z0-9.:-]{4,61}[a-z0-9])\/zones\/([a-z]+-[a-z]+\d+-[a-z])\/instances\/([a-z0-9-]{1,63})$/;
const VM_NAME = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** A Compute Engine VM by its id's shape: what the bill and the inventory name one by. */
export function isGceVm(id: string): boolean {
  return VM.test(id);
}

/**
 * The Google Cloud console's page of a VM: it is found by project, zone and name, so a numeric id
 * needs the name beside it (the inventory's, the bill's ResourceName).
 */
export function gceConsoleLink(target: ConsoleTarget): InstanceLink | undefined {
  const match = VM.exec(target.id);
  if (!match) return undefined;
  const [, project, zone, last] = match as unknown as [string, string, string, string];
  const name = /^\d+$/.test(last) ? target.name?.trim() : last;
  if (!name || !VM_NAME.test(name)) return undefined;
  return {
    label: 'Open in Google Cloud console',
    url: `https://console.cloud.google.com/compute/instancesDetail/zones/${zone}/instances/${name}?project=${encodeURIComponent(project)}`,
  };
}
