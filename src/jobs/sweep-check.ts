import { reconcileById } from '../checks/reconcile-by-id.js';
import { sweepCapFindings } from '../checks/sweeps/sweep-caps.js';
import { sweepUsage } from '../checks/sweeps/sweep-usage.js';
import { targetOf } from '../ports/chat-port.js';
import type { Deps } from '../deps.js';
import type { SweepFinding } from '../domain/sweep-finding.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import { sweepAlert } from '../../templates/sweep-alert.js';
import { loadGpuSnapshot } from '../snapshots/gpu-snapshot.js';
import { sweepWindow } from '../snapshots/gpu-windows.js';

export interface SweepCheckResult {
  findings: (SweepFinding & { state: 'new' | 'open' })[];
  resolved: string[];
  queued: OutboxDraft[];
}

/**
 * The runaway-sweep check, step by step (it runs after each idle-GPU check):
 *   1. teams with sweepCaps only; none, nothing to read
 *   2. read the inventory and the metrics of the last sweeps.windowHours
 *   3. add up each sweep's spend and GPU-hours (pure), compare with its team's caps (pure)
 *   4. reconcile with the open findings: a crossing opens a finding and alerts once; a sweep back
 *      under its cap resolves it, so a later crossing alerts again
 *   5. record findings and queue the alerts in one transaction (skipped on a dry run)
 */
export async function runSweepCheck(deps: Deps, options: { dryRun?: boolean } = {}): Promise<SweepCheckResult> {
  const caps = new Map(deps.config.teams.flatMap((t) => (t.sweepCaps ? [[t.id, t.sweepCaps] as const] : [])));
  if (caps.size === 0) return { findings: [], resolved: [], queued: [] };
  const now = deps.clock();
  // Teams as tagged: a sweep is its tag's. sweepUsage ties series to instances by instance id only
  // (as it always has); series named by host name or IP, which the snapshot ties too, count for none.
  const { instances, series, window } = await loadGpuSnapshot(deps, { window: sweepWindow(deps, now), ownership: 'tags' });
  const usage = sweepUsage(instances, series.map((s) => s.series), window, deps.config.sweeps.tagKey);
  const current = sweepCapFindings(usage, caps, deps.config.sweeps.windowHours);

  const tracked = await deps.store.sweepFindings.listOpen();
  const change = reconcileById(current, tracked);
  const queued = addressSweepAlerts(deps, change.opened, now);
  if (!options.dryRun) await deps.store.recordSweepCheck(change, queued, now);
  const opened = new Set(change.opened.map((f) => f.id));
  return { findings: current.map((f) => ({ ...f, state: opened.has(f.id) ? 'new' : 'open' })), resolved: change.resolved, queued };
}

/** One alert per crossing and platform; the key holds the run time, so a retry of the run queues nothing twice. */
function addressSweepAlerts(deps: Deps, opened: readonly SweepFinding[], now: Date): OutboxDraft[] {
  const drafts: OutboxDraft[] = [];
  for (const finding of opened) {
    const team = deps.config.teams.find((t) => t.id === finding.team);
    if (!team) continue;
    const message = sweepAlert({ teamName: team.name ?? team.id, finding, dryRun: !deps.config.actions.enabled });
    for (const port of deps.chat) {
      const address = port.addressOf(team);
      if (address) drafts.push({ dedupeKey: `sweep.cap:${finding.id}:${now.toISOString()}:${port.platform}`, target: targetOf(port, address), message });
    }
  }
  return drafts;
}
