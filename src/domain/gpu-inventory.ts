import type { CloudProvider } from './price-catalog.js';
import { normaliseTag } from './ownership.js';
import type { WorkloadRef } from './kubernetes.js';

/**
 * The GPU inventory: one record per GPU instance, what the idle checks and their findings need to
 * know beside the metrics (who owns it, what it costs, what it runs, whether it may be stopped).
 */

export type GpuWorkload = 'training' | 'inference' | 'notebook' | 'sweep' | 'unknown';
export type GpuLifecycle = 'on-demand' | 'spot';

export interface GpuInstance {
  /** Cloud instance id (AWS i-0..., GCP numeric id); the metrics' `GpuRef.host`. */
  instanceId: string;
  /** The Name tag or instance name, for people; null when there is none. */
  name: string | null;
  provider: CloudProvider;
  region: string;
  instanceType: string;
  /** Chip name as the price catalog has it: H100, A100, L4, ... */
  gpuModel: string;
  /** 0 when the type is unknown (newer than the price catalog). */
  gpuCount: number;
  /** GPU memory of the whole instance; null when unknown. */
  gpuMemoryGiB: number | null;
  /** USD per hour from the price catalog: on-demand, or spot for spot instances. */
  hourlyPrice: number;
  /** Said beside its costs when the price is not the catalog's for its own region (a region the catalog does not cover), or is the bill's. */
  priceNote?: string;
  /**
   * Where hourlyPrice comes from: 'billed', the bill's effective cost per hour of this instance;
   * 'list', the price catalog (the instance is not on the bill yet). Set by the GPU snapshot.
   */
  priceBasis?: 'billed' | 'list';
  lifecycle: GpuLifecycle;
  /**
   * Paid for whether it runs or not: an EC2 Capacity Block for ML (paid up front, not cancellable)
   * or an instance in a capacity reservation. Stopping it saves nothing; using it does.
   */
  prepaid?: PrepaidCapacity;
  /**
   * The part of its bill a Savings Plan (or a reservation the bill names) covered over the bill's
   * last days: paid whether it runs or not, so stopping it or moving it to spot saves only the rest.
   * Set by the GPU snapshot from the bill (src/snapshots/commitment-cover.ts); absent: none covered.
   */
  covered?: CommitmentCover;
  /** Team id resolved from the ownership tags: a team id, UNTAGGED or UNMAPPED (as spend rows have it). */
  team: string;
  /** The raw ownership tag value; null when untagged. */
  ownerTag: string | null;
  workload: GpuWorkload;
  /** Tagged `burnrate:protect=true`: never stopped by an action (its findings are still made). */
  protected: boolean;
  /** Chat user id of the owner; null when nobody knows. */
  owner: string | null;
  tags: Readonly<Record<string, string>>;
  /**
   * Other names the metrics may give the machine: private DNS name, private IP. DCGM's Hostname
   * and the CloudWatch agent's host dimension are host names, not instance ids.
   */
  hostNames?: readonly string[];
  /** False for a stopped (or stopping) instance, which sends no metrics because it is off; absent: running. */
  running?: boolean;
  /**
   * A Kubernetes workload rather than a machine: its pods (DCGM's pod labels tie GPU series to it)
   * and its share of each node it runs on. Its hourlyPrice is the sum of those shares of the nodes'
   * prices; Stop scales the workload, never a node.
   */
  kubernetes?: KubernetesPlacement;
  /** A notebook server of a notebook platform, which may cull idle servers itself (its alert says how it is set). */
  notebook?: NotebookPlatform;
  /**
   * Where the platform publishes no GPU metrics for it (a SageMaker Studio app), its own idea of
   * activity: the idle check judges it by this instead of GPU utilisation, and says so.
   */
  activity?: PlatformActivity;
}

/** A platform's own record of when someone last used a machine, for machines without GPU metrics. */
export interface PlatformActivity {
  /** ISO time of the last activity the platform recorded (its start where it recorded none). */
  lastActiveAt: string;
  /** Whose signal it is, for the alert: "SageMaker Studio's record of user activity". */
  signal: string;
}

/** A notebook platform's own idle culling of a notebook server, as far as burnrate can read it. */
export interface NotebookPlatform {
  platform: 'kubeflow' | 'jupyterhub' | 'sagemaker-studio';
  /** What the platform's culling is set to, in words: "Kubeflow's notebook culler stops it after 120 minutes idle". */
  culling: string;
  /** Whether the platform stops idle servers itself: null where its setting cannot be read from the cluster. */
  culls: boolean | null;
}

export interface KubernetesPlacement {
  ref: WorkloadRef;
  /** "namespace/pod" of each running pod. */
  pods: readonly string[];
  /** "namespace/claim" of the ResourceClaims its pods hold GPUs through: DCGM names a GPU so allocated by its claim. */
  claims?: readonly string[];
  /** Some of its pods hold KAI fractions of shared GPUs, which DCGM reports under the scheduler's reservation pods. */
  kaiFractions?: boolean;
  /** Each node it holds GPUs on: the node's cloud id (null on-prem), its list price an hour, and the workload's share of its GPUs. */
  nodes: readonly { name: string; instanceId: string | null; hourly: number; share: number }[];
  /** Its `burnrate.io/keep-until` annotation: the idle check leaves it alone until then. */
  keep: { until: Date; byUser: string } | null;
}

/** Prepaid capacity and, where the cloud says, when its term ends (ISO time): a Capacity Block's end. */
export interface PrepaidCapacity {
  kind: 'capacity-block' | 'reservation';
  until: string | null;
}

/** A commitment's cover of an instance's cost, as its bill shows it. */
export interface CommitmentCover {
  /** Share of its cost the commitment paid, above 0 and at most 1. */
  share: number;
  /** What covered it, as people name it. */
  by: 'Savings Plan' | 'reservation' | 'commitment';
}

/** Tag keys naming the workload, first match wins; compared like ownership tag keys. */
export const WORKLOAD_TAG_KEYS = ['burnrate:workload', 'workload'] as const;
export const PROTECT_TAG_KEY = 'burnrate:protect';
/** Tag holding the chat user id of the person who runs the instance. */
export const OWNER_TAG_KEY = 'burnrate:owner';

const WORKLOAD_ALIASES: Readonly<Record<string, GpuWorkload>> = {
  training: 'training',
  train: 'training',
  inference: 'inference',
  serving: 'inference',
  notebook: 'notebook',
  interactive: 'notebook',
  jupyter: 'notebook',
  sweep: 'sweep',
  hpo: 'sweep',
};

/** The tag's value under `key`, keys compared normalised (case and whitespace do not count). */
function tagValue(tags: Readonly<Record<string, unknown>> | null | undefined, key: string): string | null {
  if (!tags) return null;
  const wanted = normaliseTag(key);
  for (const [k, v] of Object.entries(tags)) {
    if (normaliseTag(k) === wanted && v !== null && v !== undefined && String(v).trim() !== '') return String(v);
  }
  return null;
}

/** The workload kind from the tags (`burnrate:workload`, else `workload`); 'unknown' when absent or unrecognised. */
export function workloadOf(tags: Readonly<Record<string, unknown>> | null | undefined): GpuWorkload {
  for (const key of WORKLOAD_TAG_KEYS) {
    const value = tagValue(tags, key);
    if (value !== null) return WORKLOAD_ALIASES[normaliseTag(value)] ?? 'unknown';
  }
  return 'unknown';
}

/** Whether the instance is tagged `burnrate:protect=true` (key and value compared normalised). */
export function isProtected(tags: Readonly<Record<string, unknown>> | null | undefined): boolean {
  const value = tagValue(tags, PROTECT_TAG_KEY);
  return value !== null && normaliseTag(value) === 'true';
}

/** The chat user id in the `burnrate:owner` tag; null when absent. */
export function ownerOf(tags: Readonly<Record<string, unknown>> | null | undefined): string | null {
  return tagValue(tags, OWNER_TAG_KEY)?.trim() ?? null;
}
