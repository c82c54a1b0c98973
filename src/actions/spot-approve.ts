import { z } from 'zod';
import { parseButtonValue } from './button-value.js';
import type { ActionSpec } from './action.js';
import { SPOT_PERMISSIONS, launchTemplateOf, type SpotChange } from '../ports/spot-port.js';
import { spotPortOfInstance } from './spot-port-of.js';
import { spotReadiness } from '../checks/recommend/checkpointing.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { formatMoney } from '../domain/money.js';
import { BurnrateError } from '../domain/errors.js';
import { currentInstance, currentRecommendations } from '../snapshots/current-recommendations.js';
import { errorMessage } from '../../templates/error-message.js';
import { spotApprovalPending, spotMigrated } from '../../templates/spot-migration.js';

const ACTION = 'spot.approve';
/** A migration claimed but not finished after this long is taken to have died with its process. */
export const STALE_CLAIM_MS = 10 * 60_000;
const payloadSchema = z.strictObject({ i: z.string().min(1).max(100) });

/**
 * "Approve spot migration", step by step:
 *   1. read the instance as it is now (fresh tags), not as the message was written
 *   2. approvers of its team (and admins) only
 *   3. readiness: not an inference endpoint, checkpointing declared, interval at most spot.maxCheckpointMinutes
 *   4. a spot recommendation still stands (the catalog has a spot price), a launch template is named,
 *      and the instance's source can change it (the demo's templates, EC2 in the instance's region)
 *   5. a saving above spot.secondApproverAbove needs two different approvers
 *   6. dry run while actions.enabled is false: asks the cloud, records nothing
 *   7. record the approval (the same approver twice is refused); not enough yet: say so in the thread
 *   8. enough: claim the migration (one click of many acts), change the launch template, post the
 *      result with Revert to on-demand in the thread; every step audited
 */
export const spotApproveAction: ActionSpec = {
  id: ACTION,
  permissions: SPOT_PERMISSIONS,
  async run(deps, interaction) {
    const { i: instanceId } = parseButtonValue(payloadSchema, interaction.value, '/burnrate recommend');
    const { actor } = interaction;
    const audit = { at: deps.clock(), platform: actor.platform, userId: actor.userId, action: ACTION, subject: instanceId };
    const refuse = async (detail: string, error: BurnrateError): Promise<never> => {
      await deps.store.audit.record({ ...audit, result: 'refused', detail });
      throw error;
    };

    const instance = await currentInstance(deps, instanceId);
    if (!instance) return refuse('unknown instance', new BurnrateError('burnrate_instance_unknown', `burnrate's inventory has no instance ${instanceId} any more.`, 'It may have been terminated; nothing was changed.'));
    const label = instance.name ?? instance.instanceId;
    const team = deps.config.teams.find((t) => t.id === instance.team);
    if (!hasRole(rolesOf(deps.config, actor.userId), instance.team, ['approver']))
      return refuse('not an approver', new BurnrateError('burnrate_forbidden', `Only approvers of ${team?.name ?? instance.team} can approve moving ${label} to spot.`, `Ask ${team?.approvers.join(' or ') || 'an admin'}.`));

    const readiness = spotReadiness(instance, deps.config.spot.maxCheckpointMinutes, label);
    if (!readiness.ready) return refuse(readiness.reason, new BurnrateError(`burnrate_spot_${readiness.reason.replace(/-/g, '_')}`, `Not approved: ${readiness.message}`, readiness.hint));

    const recommendation = (await currentRecommendations(deps, { instanceIds: [instanceId] })).find((r) => r.kind === 'spot');
    if (!recommendation)
      return refuse('no spot recommendation', new BurnrateError('burnrate_spot_not_recommended', `Not approved: burnrate has no spot recommendation for ${label} now.`, 'The price catalog has no spot price for its type and region, or it has not run lately.'));
    const launchTemplate = launchTemplateOf(instance.tags);
    if (!launchTemplate)
      return refuse('no launch template', new BurnrateError('burnrate_spot_no_launch_template', `Not approved: burnrate does not know which launch template starts ${label}.`, 'Tag the instance burnrate:launch-template=lt-... (instances launched from a template carry aws:ec2launchtemplate:id already).'));
    const port = await spotPortOfInstance(deps, instance);
    if (!port)
      return refuse(
        'no spot port',
        new BurnrateError('burnrate_spot_unsupported', `Not approved: burnrate cannot change launch templates of ${label} (${instance.provider}, ${instance.region}).`, 'Spot migrations run on EC2 launch templates: list the instance\'s AWS region under gpu.inventory in burnrate.yml.'),
      );
    const approvalsNeeded = recommendation.monthlySaving > deps.config.spot.secondApproverAbove ? 2 : 1;
    const saving = formatMoney(recommendation.monthlySaving, 'USD');

    if (!deps.config.actions.enabled) {
      const earlier = await deps.store.spotMigrations.active(instanceId);
      const done = earlier?.approvals.length ?? 0;
      const completes = done + 1 >= approvalsNeeded;
      const result = completes ? await port.moveToSpot(launchTemplate, { dryRun: true, description: '' }) : null;
      await deps.store.audit.record({ ...audit, result: 'dry-run', detail: result?.detail ?? `approval ${done + 1} of ${approvalsNeeded}` });
      const what = completes ? `would have moved ${label} to spot (${result!.detail})` : `would have recorded your approval: moving ${label} to spot saves ${saving} a month, so a second approver is needed`;
      await interaction.reply.private(errorMessage(`Dry run: burnrate ${what}. Nothing was changed or recorded.`, 'Cloud actions are dry runs until `actions: { enabled: true }` is set in burnrate.yml.'));
      return;
    }

    const { outcome, migration } = await deps.store.spotMigrations.approve({ instanceId, team: instance.team, launchTemplate, place: port.place, monthlySaving: recommendation.monthlySaving, approvalsNeeded, approver: actor.userId, at: deps.clock() });
    if (outcome === 'same-approver')
      return refuse('same approver twice', new BurnrateError('burnrate_spot_same_approver', `You already approved moving ${label} to spot.`, `It saves ${formatMoney(migration.monthlySaving, 'USD')} a month, so a second, different approver of ${team?.name ?? instance.team} must approve it too.`));
    // A migration claimed long ago and never finished died with its process: the next click finishes it (the port is idempotent).
    const resumed = outcome === 'not-approving' && migration.state === 'migrating' && (await deps.store.spotMigrations.reclaimStale(migration.id, 'migrating', new Date(deps.clock().getTime() - STALE_CLAIM_MS), deps.clock()));
    if (outcome === 'not-approving' && !resumed) {
      await deps.store.audit.record({ ...audit, result: 'duplicate', detail: migration.state });
      await interaction.reply.private(errorMessage(`${label} is already ${migration.state === 'migrated' ? 'moved' : 'moving'} to spot (approved by ${migration.approvals.map((a) => a.approver).join(' and ')}).`));
      return;
    }
    if (!resumed && migration.approvals.length < migration.approvalsNeeded) {
      await deps.store.audit.record({ ...audit, result: 'ok', detail: `approval ${migration.approvals.length} of ${migration.approvalsNeeded}` });
      await interaction.reply.thread(spotApprovalPending(label, migration));
      return;
    }
    if (!resumed && !(await deps.store.spotMigrations.transition(migration.id, 'approving', 'migrating', deps.clock()))) {
      await deps.store.audit.record({ ...audit, result: 'duplicate', detail: 'another approval is executing it' });
      await interaction.reply.private(errorMessage(`${label} is being moved to spot already.`));
      return;
    }
    let change: SpotChange;
    try {
      change = await port.moveToSpot(launchTemplate, { dryRun: false, description: `burnrate: spot for ${label} (${instanceId}), approved by ${migration.approvals.map((a) => a.approver).join(', ')}` });
    } catch (error) {
      await deps.store.spotMigrations.transition(migration.id, 'migrating', 'approving', deps.clock());
      await deps.store.audit.record({ ...audit, result: 'failed', detail: (error as Error).message });
      throw error;
    }
    await deps.store.spotMigrations.completeMigration(migration.id, { previousVersion: change.previousVersion, spotVersion: change.currentVersion, at: deps.clock(), detail: change.detail });
    await deps.store.audit.record({ ...audit, result: 'ok', detail: `${change.outcome}: ${change.detail}` });
    await interaction.reply.thread(spotMigrated(label, (await deps.store.spotMigrations.get(migration.id))!, change.detail));
  },
};
