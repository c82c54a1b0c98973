import { BurnrateError } from '../../../domain/errors.js';

/** Where a Compute Engine VM lives and which one it is: enough to call instances.get and stop. */
export interface GceInstanceKey {
  project: string;
  zone: string;
  /** The VM's numeric id (Compute Engine accepts it wherever it takes the name; it never changes, a name can be reused). */
  id: string;
}

const PREFIX = '//compute.googleapis.com/';
const PATTERN = /^\/\/compute\.googleapis\.com\/projects\/([^/]+)\/zones\/([^/]+)\/instances\/(\d+)$/;

/**
 * A VM's id in burnrate: its full resource name as the bill names it (the detailed billing
 * export's `resource.global_name`, FOCUS `ResourceId`), so the GPU snapshot prices it at its
 * billed rate, and the stop port reads its project and zone from it.
 */
export function gceInstanceId(key: GceInstanceKey): string {
  return `${PREFIX}projects/${key.project}/zones/${key.zone}/instances/${key.id}`;
}

export function isGceInstanceId(id: string): boolean {
  return PATTERN.test(id);
}

export function parseGceInstanceId(id: string): GceInstanceKey {
  const match = PATTERN.exec(id);
  if (!match)
    throw new BurnrateError(
      'burnrate_gce_instance_id_invalid',
      `Not a Compute Engine VM: ${id}`,
      `Expected ${PREFIX}projects/<project>/zones/<zone>/instances/<numeric id>.`,
      2,
    );
  return { project: match[1]!, zone: match[2]!, id: match[3]! };
}

/** The last segment of a Compute Engine URL (a zone, machine type or accelerator type link), or the text itself. */
export function lastSegment(url: string | null | undefined): string {
  return (url ?? '').split('/').pop() ?? '';
}

/** A zone's region: us-central1-a → us-central1. */
export function regionOfZone(zone: string): string {
  return zone.replace(/-[a-z]$/, '');
}
