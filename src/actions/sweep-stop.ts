import { askWhom } from './team-role.js';
import { groupsOf, personOf, personText } from '../ports/people-directory.js';
import { z } from 'zod';
import { parseButtonValue, unknownFinding } from './button-value.js';
import { defineAction, type ActionContext } from './action.js';
import { DRY_RUN_HINT } from '../operations/operation.js';
import { claimOnce } from '../operations/claim-once.js';
import type { StopResult } from '../ports/instance-port.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { timeOf } from '../../templates/message.js';
import { formatMoney } from '../domain/money.js';
import { BurnrateError } from '../domain/errors.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { ActionFailed, Refused, type Audited, type AuditRow } from '../domain/audit-outcome.js';
import type { InstanceActionRecord } from '../domain/instance-action.js';
import type { SavingEntry } from '../domain/saving.js';
import type { TrackedSweepFinding } from '../domain/sweep-finding.js';
import { gpuDepsOf } from '../snapshots/gpu-snapshot.js';
import { privateReply } from '../../templates/private-reply.js';
import { sweepAlert } from '../../templates/sweep-alert.js';

const ACTION = ACTION_IDS.sweepStop;
const payloadSchema = z.strictObject({ f: z.string().min(1).max(300) });

type SweepStop =
  | { kind: 'duplicate'; row: InstanceActionRecord }
  | { kind: 'done'; dryRun: boolean; results: StopResult[]; summary: string | null };

/**
 * "Stop sweep" on a runaway-sweep alert, under the idle-GPU Stop's rules:
 *   1. validate the payload and load the finding
 *   2. owners, approvers and admins of the team only
 *   3. one stop per crossing (claimOnce): a claim row written before acting; a second click is told who did it
 *   4. each instance through the action port: protected ones are left running (and named), a
 *      dry run asks the cloud and stops nothing while actions.enabled is false
 *   5. every instance's outcome is an audit row; the alert is updated with who stopped what
 */
export const sweepStopAction = defineAction({
  id: ACTION,
  permissions: [],
  ports: ['instances'],
  sideEffects: 'cloud',
  async parse(deps, interaction) {
    const { f: id } = parseButtonValue(payloadSchema, interaction.value, '/burnrate idle');
    const finding = await deps.store.sweepFindings.get(id);
    if (!finding) throw unknownFinding('/burnrate idle');
    return finding;
  },
  subject: (finding) => ({ subject: finding.id }),
  async authorize({ deps, interaction }, finding) {
    if (!hasRole(rolesOf(deps.config, interaction.actor.userId, groupsOf(deps)), finding.team, ['owner', 'approver'])) {
      const team = deps.config.teams.find((t) => t.id === finding.team);
      throw new Refused(
        new BurnrateError(
          'burnrate_forbidden',
          `Only owners and approvers of ${team?.name ?? finding.team} can stop sweep ${finding.sweep}.`,
          askWhom(deps, finding.team, ['owner', 'approver']),
        ),
        `${finding.sweep} not an owner or approver`,
      );
    }
  },
  run: (ctx, finding) => stopSweep(ctx, finding, false),
  dryRun: (ctx, finding) => stopSweep(ctx, finding, true),
  async answer({ deps, interaction }, finding, outcome) {
    if (outcome.kind === 'duplicate') {
      const { row } = outcome;
      await interaction.reply.private(
        privateReply(
          row.outcome
            ? `Sweep ${finding.sweep} was already stopped by ${personText(deps, row.byUser)} at ${timeOf(row.at)} (${row.detail}).`
            : `${personText(deps, row.byUser)} is stopping sweep ${finding.sweep} since ${timeOf(row.at)}.`,
        ),
      );
      return;
    }
    const label = (instanceId: string) => finding.instances.find((i) => i.instanceId === instanceId)?.name ?? instanceId;
    const of = (kind: StopResult['outcome']) => outcome.results.filter((r) => r.outcome === kind).map((r) => label(r.id));
    const refused = of('refused');
    if (outcome.dryRun) {
      const would = of('would-stop');
      await interaction.reply.private(
        privateReply(
          `Dry run: burnrate would have stopped ${would.length} instance(s) of sweep ${finding.sweep}${would.length ? ` (${would.join(', ')})` : ''}, saving ${formatMoney(finding.perHour, 'USD')} per hour.${refused.length ? ` Left running: ${refused.join(', ')} (protected or not running).` : ''} Nothing was stopped.`,
          DRY_RUN_HINT,
        ),
      );
      return;
    }
    const team = deps.config.teams.find((t) => t.id === finding.team);
    const by = personOf(deps, interaction.actor.userId, interaction.actor.platform);
    const stopped = {
      by,
      at: deps.clock(),
      summary: `${outcome.summary}.`,
      instances: outcome.results.filter((r) => r.outcome === 'stopped').map((r) => r.id),
    };
    await interaction.reply.update(sweepAlert({ teamName: team?.name ?? finding.team, finding, dryRun: false, stopped }));
  },
});

/** Claims the crossing once, then stops (or dry-runs) every instance of the sweep; one audit row per instance. */
async function stopSweep({ deps, interaction }: ActionContext, finding: TrackedSweepFinding, dryRun: boolean): Promise<Audited<SweepStop>> {
  const actions = deps.store.instanceActions;
  // One stop per crossing: a sweep that crosses again later (a new first_seen) can be stopped again.
  const claimKey = `${finding.id}@${finding.firstSeen.toISOString()}`;
  const ids = finding.instances.map((i) => i.instanceId);
  const claimed = await claimOnce(deps.clock(), {
    earlier: await actions.get(claimKey, ACTION),
    unfinished: (record) => record.outcome === null,
    takeOver: async (record, staleBefore) => (record.at < staleBefore ? (await actions.release(claimKey, ACTION), 'released') : null),
    claim: () =>
      actions.claim({ findingId: claimKey, action: ACTION, instanceId: ids.join(','), byUser: interaction.actor.userId, at: deps.clock() }),
  });
  if (claimed.kind !== 'claimed')
    return { audit: { result: 'duplicate' }, value: { kind: 'duplicate', row: (await actions.get(claimKey, ACTION))! } };

  const port = gpuDepsOf(deps).instances;
  const results: StopResult[] = [];
  const rows: AuditRow[] = [];
  try {
    for (const instance of finding.instances) {
      const result = await port.stop(instance.instanceId, { dryRun });
      results.push(result);
      rows.push({ result: auditResult(result), detail: `${instance.instanceId}: ${result.detail}` });
    }
  } catch (error) {
    await actions.release(claimKey, ACTION);
    throw new ActionFailed((error as Error).message, error, rows);
  }
  if (dryRun) {
    await actions.release(claimKey, ACTION);
    return { audit: rows, value: { kind: 'done', dryRun, results, summary: null } };
  }
  const count = (outcome: StopResult['outcome']) => results.filter((r) => r.outcome === outcome);
  const label = (instanceId: string) => finding.instances.find((i) => i.instanceId === instanceId)?.name ?? instanceId;
  const refused = count('refused').map((r) => label(r.id));
  const summary = `${count('stopped').length} stopped${count('already-stopped').length ? `, ${count('already-stopped').length} already stopped` : ''}${refused.length ? `, left running: ${refused.join(', ')} (protected or not running)` : ''}`;
  const stopped = new Set(count('stopped').map((r) => r.id));
  // Only an instance that ran (its GPUs reported at the end of the sweep's window) saves by being
  // stopped: one the cloud still lists as running but that ran nothing is the alert's "not running".
  const savings: SavingEntry[] = finding.instances
    .filter((i) => i.running && stopped.has(i.instanceId))
    .map((i) => ({
      action: ACTION,
      ref: claimKey,
      resourceId: i.instanceId,
      name: i.name,
      team: finding.team,
      at: deps.clock(),
      byUser: interaction.actor.userId,
      expectedDaily: i.hourlyPrice * 24,
      currency: 'USD',
    }));
  await actions.complete(claimKey, ACTION, 'stopped', summary, savings);
  return { audit: rows, value: { kind: 'done', dryRun, results, summary } };
}

function auditResult(result: StopResult): 'ok' | 'refused' | 'dry-run' {
  if (result.outcome === 'would-stop') return 'dry-run';
  if (result.outcome === 'refused') return 'refused';
  return 'ok';
}
