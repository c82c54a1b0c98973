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
}

/** The label of a node's GPUs no pod requested, in reports. */
export const UNREQUESTED = '(unrequested GPUs)';
/** The label of node time the samples did not see (burnrate not yet running, a cluster unreachable). */
export const UNOBSERVED = '(not observed)';
