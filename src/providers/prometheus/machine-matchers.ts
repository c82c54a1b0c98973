import type { GpuInstance } from '../../domain/gpu-inventory.js';

/** One PromQL label matcher `label=~"regex"`; a series selected by any of a list is kept (`or`). */
export interface LabelMatcher {
  readonly label: string;
  readonly regex: string;
}

/** The labels DCGM names a machine by (Hostname, its newer spelling, the scrape target), as refFromLabels reads them. */
const HOST_LABELS = ['Hostname', 'hostname', 'instance'] as const;
/** The labels DCGM names a workload's pod by, as refFromLabels reads them (Operator without honorLabels, 1.x). */
const POD_LABELS = ['pod', 'exported_pod', 'pod_name'] as const;

/**
 * Matchers selecting the series of these machines only: by their host names and, for a Kubernetes
 * workload, its pods. They select at least every series the snapshot's attribution (hostMatcher,
 * podMatcher in snapshots/gpu-attribution.ts) would give them: a name in any case, its DNS name's
 * first label, with a domain after it or a port (`10.0.1.23:9400`, `[fe80::1]:9400`). A few more
 * may come back (another machine whose name extends one of these); attribution drops them.
 */
export function machineMatchers(instances: readonly GpuInstance[]): LabelMatcher[] {
  const names = new Set<string>();
  const pods = new Set<string>();
  for (const instance of instances) {
    for (const name of [instance.instanceId, ...(instance.hostNames ?? [])]) {
      names.add(name.toLowerCase());
      if (!/^\d+\.\d+\.\d+\.\d+$/.test(name)) names.add(name.toLowerCase().split('.')[0]!);
    }
    for (const node of instance.kubernetes?.nodes ?? []) names.add(node.name.toLowerCase());
    for (const pod of instance.kubernetes?.pods ?? []) pods.add(pod.slice(pod.indexOf('/') + 1));
  }
  const matchers: LabelMatcher[] = [];
  if (names.size > 0) {
    // RE2 anchors the whole value; (?i) because attribution compares names lowercased.
    const regex = `(?i)\\[?(?:${[...names].map(escapeRegex).join('|')})(?:[.:\\]].*)?`;
    for (const label of HOST_LABELS) matchers.push({ label, regex });
  }
  if (pods.size > 0) {
    const regex = [...pods].map(escapeRegex).join('|');
    for (const label of POD_LABELS) matchers.push({ label, regex });
  }
  return matchers;
}

/** `metric{label=~"regex"}`, the regex quoted as a PromQL string (backslashes and quotes escaped, as JSON does). */
export function selector(metric: string, matcher: LabelMatcher): string {
  return `${metric}{${matcher.label}=~${JSON.stringify(matcher.regex)}}`;
}

/** RE2's metacharacters taken literally: a host name's dots must not match any character. */
function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
