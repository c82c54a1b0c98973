/** One UTC day of one workload's hold on one node's GPUs; `workload` '' is the node's unrequested GPUs. */
export interface KubeUsageRow {
  day: string;
  cluster: string;
  node: string;
  /** The node's cloud instance id, where the bill can name it. */
  nodeInstanceId: string | null;
  /** The node's list price an hour, for days the bill does not (yet) cover. */
  nodeHourly: number;
  namespace: string;
  /** workloadKey, or '' for the GPUs no pod requested. */
  workload: string;
  team: string | null;
  /** Share of the node's GPUs × hours. The rows of a node-day sum to the hours the node was seen. */
  nodeHours: number;
}

/** A Kubernetes cost line: a workload's (or a node's unrequested GPUs') share of its nodes' cost over a period. */
export interface KubeCostLine {
  cluster: string;
  namespace: string;
  workload: string;
  team: string | null;
  /** USD to the cent. */
  cost: number;
  /** Where the amount comes from (KubeCostBasis); a line of both kinds of node-day is 'mixed'. */
  basis: KubeCostBasis;
}

/**
 * 'bill': the bill's own pod split (AWS split cost allocation data); 'estimate': burnrate's split of
 * the node's cost by the GPU shares it sampled; 'mixed': some node-days of each.
 */
export type KubeCostBasis = 'bill' | 'estimate' | 'mixed';

/**
 * What the bill itself charged one pod on one node in one day: AWS split cost allocation data
 * (CUR 2.0 `split_line_item_split_cost` of the pod's rows, its ARN
 * `arn:aws:eks:<region>:<account>:pod/<cluster>/<namespace>/<pod>/<uid>`), in the bill's currency.
 */
export interface KubeSplitCost {
  day: string;
  /** The node's instance (`split_line_item_parent_resource_id`). */
  nodeInstanceId: string;
  cluster: string;
  namespace: string;
  pod: string;
  billingPeriod: string;
  currency: string;
  /** The pod's share of the instance's amortised cost (`split_line_item_split_cost`). */
  splitCost: number;
  /** File exports: the index in the import's `scope.parts` of the file it was read from. */
  part?: number;
}

/** The label of a node's GPUs no pod requested, in reports. */
export const UNREQUESTED = '(unrequested GPUs)';
/** The label of node time the samples did not see (burnrate not yet running, a cluster unreachable). */
export const UNOBSERVED = '(not observed)';

/** What scales a node pool: Karpenter, or the cloud's managed node groups with the cluster autoscaler. */
export type PoolManager = 'karpenter' | 'eks' | 'gke' | 'aks';

/** One GPU node pool at one sample. */
export interface PoolSample {
  cluster: string;
  pool: string;
  manager: PoolManager | null;
  at: Date;
  /** Hours since the previous sample that this one stands for (0 for a cluster's first). */
  hours: number;
  nodes: number;
  /** GPUs offered and requested, in whole GPUs (MIG slices at their share). */
  gpus: number;
  requested: number;
  /** The pool's nodes' list price an hour, together. */
  hourly: number;
}

/** A GPU node pool that held nodes all along while its GPUs sat unrequested: static capacity. */
export interface StaticPool {
  cluster: string;
  pool: string;
  manager: PoolManager | null;
  /** The fewest and most nodes any sample saw: never 0, or it would have scaled to zero. */
  minNodes: number;
  maxNodes: number;
  /** GPU-hours the pool offered over the samples, and those no pod requested. */
  gpuHours: number;
  idleGpuHours: number;
  /** What the unrequested GPUs cost outside working hours, scaled to a month (USD, list price). */
  offHoursMonthly: number;
  /** What to change, in the words of what scales the pool. */
  setting: string;
  evidence: string[];
}
