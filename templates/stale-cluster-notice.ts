import { timeOf, type Message } from './message.js';

const MAX_ERROR = 400;

/** A configured cluster whose API server did not answer burnrate's last read. */
export interface UnansweredCluster {
  cluster: string;
  error: string;
  /** When its inventory was last read; null when it never was since burnrate started. */
  lastGoodAt: Date | null;
}

/**
 * Told to a team once a day while a cluster its workloads run on does not answer: what burnrate
 * still knows of it (its last read, or nothing), what it therefore does not do, and the error to fix.
 */
export function staleClusterNotice(teamName: string, cluster: UnansweredCluster): Message {
  const headline = `${teamName}: Kubernetes cluster ${cluster.cluster} is not answering`;
  const known = cluster.lastGoodAt
    ? `Its workloads are checked as they were last read, at ${timeOf(cluster.lastGoodAt)}: new workloads are not seen and their usage is not counted until it answers.`
    : 'It has not answered since burnrate started: its workloads are not checked, its usage is not counted, and machines that say they are Kubernetes nodes are left alone.';
  const error = cluster.error.length > MAX_ERROR ? `${cluster.error.slice(0, MAX_ERROR - 1)}…` : cluster.error;
  return {
    summary: headline,
    blocks: [
      { type: 'header', text: headline },
      { type: 'text', text: known },
      { type: 'text', text: `Last read failed: ${error}` },
      {
        type: 'context',
        text: "burnrate asks again at every check. Check the cluster's kubeconfig or the service account's token and permissions (docs/permissions.md, Kubernetes).",
      },
    ],
  };
}
