import type { AnomalyFinding } from '../domain/anomaly-finding.js';
import type { Finding } from '../domain/finding.js';
import type { GpuFinding } from '../domain/gpu-finding.js';
import type { SweepFinding } from '../domain/sweep-finding.js';

/** Each table of findings a check run records into, and the findings it holds. */
export interface FindingTables {
  findings: Finding;
  gpuFindings: GpuFinding;
  sweepFindings: SweepFinding;
  anomalyFindings: AnomalyFinding;
}

export type FindingTable = keyof FindingTables;

/** Each check's family of rows in the one findings table (check_findings). */
export const FINDING_FAMILIES: Record<FindingTable, FindingFamily> = {
  findings: 'budget',
  gpuFindings: 'gpu',
  sweepFindings: 'sweep',
  anomalyFindings: 'anomaly',
};

export type FindingFamily = 'budget' | 'gpu' | 'sweep' | 'anomaly';
