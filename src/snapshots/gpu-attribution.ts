import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { GpuSeries } from '../domain/gpu-metrics.js';
import { UNTAGGED } from '../domain/spend.js';

export interface AttributedGpu {
  series: GpuSeries;
  /** The instance the series belongs to; its team may come from the pods' namespace (see below). */
  instance: GpuInstance;
}

/**
 * Ties each GPU series to its inventory instance. Sources name machines differently: the demo
 * and CloudWatch with InstanceId give the instance id; DCGM's Hostname label is the node's host
 * name (`ip-10-0-1-23` or `ip-10-0-1-23.ec2.internal`), the agent's `host` dimension likewise,
 * and Prometheus' `instance` label is `10.0.1.23:9400`. So a series matches an instance by id,
 * private DNS name, the DNS name's first label, or private IP (without the port). Series of no
 * known instance are left out: without a price or owner there is nothing to report.
 *
 * An instance without an ownership tag (UNTAGGED) whose GPUs run pods of a namespace a team
 * claims (`teams[].gpu.namespaces`) is that team's. Where its GPUs serve several claimed
 * namespaces, the first GPU's (lowest index) decides; an instance's GPUs share one team.
 */
export function attributeSeries(
  inventory: readonly GpuInstance[],
  series: readonly GpuSeries[],
  namespaces: ReadonlyMap<string, string>,
): AttributedGpu[] {
  const instanceOf = hostMatcher(inventory);
  const workloadOf = podMatcher(inventory);
  const matched: AttributedGpu[] = [];
  for (const s of series) {
    const instance = workloadOf(s.ref) ?? instanceOf(s.ref.host);
    if (instance) matched.push({ series: s, instance });
  }
  return withNamespaceTeams(matched, namespaces);
}

/**
 * The Kubernetes workload whose pod holds the GPU, by the exporter's pod labels: on a node shared by
 * several teams' pods, each GPU is its pod's workload's, not the node's. A GPU allocated through a
 * ResourceClaim is its claim's workload's where no pod label names one (a series of a GPU is one
 * GPU: a claim shared by two workloads' pods goes to the first listed, each priced at its share).
 */
function podMatcher(inventory: readonly GpuInstance[]): (ref: GpuSeries['ref']) => GpuInstance | undefined {
  const byPod = new Map<string, GpuInstance>();
  const byClaim = new Map<string, GpuInstance>();
  for (const instance of inventory) {
    for (const pod of instance.kubernetes?.pods ?? []) byPod.set(pod, instance);
    for (const claim of instance.kubernetes?.claims ?? []) if (!byClaim.has(claim)) byClaim.set(claim, instance);
  }
  return (ref) =>
    (ref.namespace && ref.pod ? byPod.get(`${ref.namespace}/${ref.pod}`) : undefined) ??
    (ref.claim ? byClaim.get(`${ref.claim.namespace}/${ref.claim.name}`) : undefined);
}

/** The instance a source's machine name means (id, DNS name, its first label, IP with or without port), as above. */
export function hostMatcher(inventory: readonly GpuInstance[]): (host: string) => GpuInstance | undefined {
  // null marks a host name two instances share (overlapping VPC ranges in two regions): it names neither.
  const byName = new Map<string, GpuInstance | null>();
  const add = (name: string, instance: GpuInstance) => {
    const known = byName.get(name);
    byName.set(name, known === undefined || known?.instanceId === instance.instanceId ? instance : null);
  };
  for (const instance of inventory) {
    for (const name of instance.hostNames ?? []) {
      add(name.toLowerCase(), instance);
      add(shortName(name), instance);
    }
  }
  // Ids last: an id always wins over a host name that happens to look the same.
  for (const instance of inventory) byName.set(instance.instanceId.toLowerCase(), instance);
  return (name) => {
    const host = withoutPort(name.toLowerCase());
    const exact = byName.get(host);
    return (exact === undefined ? byName.get(shortName(host)) : exact) ?? undefined;
  };
}

function withNamespaceTeams(matched: AttributedGpu[], namespaces: ReadonlyMap<string, string>): AttributedGpu[] {
  if (namespaces.size === 0) return matched;
  const teamOf = new Map<string, string>();
  const byGpuIndex = [...matched].sort((a, b) => a.series.ref.gpu.localeCompare(b.series.ref.gpu, 'en', { numeric: true }));
  for (const { series, instance } of byGpuIndex) {
    if (instance.team !== UNTAGGED || teamOf.has(instance.instanceId) || !series.ref.namespace) continue;
    const team = namespaces.get(series.ref.namespace);
    if (team) teamOf.set(instance.instanceId, team);
  }
  if (teamOf.size === 0) return matched;
  const retagged = new Map<string, GpuInstance>();
  return matched.map(({ series, instance }) => {
    const team = teamOf.get(instance.instanceId);
    if (!team) return { series, instance };
    let copy = retagged.get(instance.instanceId);
    if (!copy) retagged.set(instance.instanceId, (copy = { ...instance, team }));
    return { series, instance: copy };
  });
}

/** `10.0.1.23:9400` → `10.0.1.23`; an IPv6 literal in brackets keeps its colons. */
function withoutPort(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') > 0 ? host.indexOf(']') : undefined);
  const colon = host.lastIndexOf(':');
  return colon > 0 && host.indexOf(':') === colon && /^\d+$/.test(host.slice(colon + 1)) ? host.slice(0, colon) : host;
}

/** A DNS name's first label (`ip-10-0-1-23.ec2.internal` → `ip-10-0-1-23`); an IP address stays whole. */
function shortName(name: string): string {
  const lower = name.toLowerCase();
  if (/^\d+\.\d+\.\d+\.\d+$/.test(lower)) return lower;
  return lower.split('.')[0]!;
}
