import { z } from 'zod';
import { parseButtonValue } from './button-value.js';
import type { ActionSpec } from './action.js';
import { STALE_CLAIM_MS } from './spot-approve.js';
import { spotPortOfMigration } from './spot-port-of.js';
import { SPOT_PERMISSIONS, type SpotChange } from '../ports/spot-port.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { utcMinute } from '../domain/utc-minute.js';
import { BurnrateError } from '../domain/errors.js';
import { errorMessage } from '../../templates/error-message.js';
import { spotReverted } from '../../templates/spot-migration.js';

const ACTION = 'spot.revert';
const payloadSchema = z.strictObject({ m: z.number().int().positive() });

/**
 * "Revert to on-demand": the launch template's default goes back to the version it had before the
 * migration, through the port the migration was made through (the demo, or EC2 in its region). Owners and approvers of the team (and admins) may revert: it is the safe direction.
 * Dry run while actions.enabled is false; a second click finds it reverted and does nothing; audited.
 */
export const spotRevertAction: ActionSpec = {
  id: ACTION,
  permissions: SPOT_PERMISSIONS,
  async run(deps, interaction) {
    const { m: id } = parseButtonValue(payloadSchema, interaction.value, '/burnrate recommend');
    const { actor } = interaction;
    const audit = { at: deps.clock(), platform: actor.platform, userId: actor.userId, action: ACTION, subject: `spot-migration:${id}` };
    const migration = await deps.store.spotMigrations.get(id);
    if (!migration) throw new BurnrateError('burnrate_finding_unknown', 'This spot migration is not known to burnrate.', 'It may come from another installation or a reset database; nothing was changed.');
    const team = deps.config.teams.find((t) => t.id === migration.team);
    const inventory = await deps.gpu?.inventory();
    const label = inventory?.find((i) => i.instanceId === migration.instanceId)?.name ?? migration.instanceId;
    if (!hasRole(rolesOf(deps.config, actor.userId), migration.team, ['owner', 'approver'])) {
      await deps.store.audit.record({ ...audit, result: 'refused', detail: 'not an owner or approver' });
      throw new BurnrateError('burnrate_forbidden', `Only owners and approvers of ${team?.name ?? migration.team} can revert ${label} to on-demand.`, 'Ask one of them, or an admin.');
    }
    const resumed = migration.state === 'reverting' && (await deps.store.spotMigrations.reclaimStale(id, 'reverting', new Date(deps.clock().getTime() - STALE_CLAIM_MS), deps.clock()));
    if (migration.state === 'reverted' || (migration.state === 'reverting' && !resumed)) {
      await deps.store.audit.record({ ...audit, result: 'duplicate' });
      const when = migration.revertedAt ? ` at ${utcMinute(migration.revertedAt)}` : '';
      await interaction.reply.private(errorMessage(migration.state === 'reverted' ? `Already reverted to on-demand by ${migration.revertedBy}${when}.` : `${label} is being reverted already.`));
      return;
    }
    if ((migration.state !== 'migrated' && !resumed) || migration.previousVersion === null)
      throw new BurnrateError('burnrate_spot_not_migrated', `${label} has not been moved to spot, so there is nothing to revert.`);
    const port = await spotPortOfMigration(deps, migration);

    if (!deps.config.actions.enabled) {
      const result = await port.revertToOnDemand(migration.launchTemplate, migration.previousVersion, { dryRun: true });
      await deps.store.audit.record({ ...audit, result: 'dry-run', detail: result.detail });
      await interaction.reply.private(errorMessage(`Dry run: burnrate would have reverted ${label} to on-demand (${result.detail}).`, 'Cloud actions are dry runs until `actions: { enabled: true }` is set in burnrate.yml.'));
      return;
    }
    if (!resumed && !(await deps.store.spotMigrations.transition(id, 'migrated', 'reverting', deps.clock()))) {
      await deps.store.audit.record({ ...audit, result: 'duplicate' });
      await interaction.reply.private(errorMessage(`${label} is being reverted already.`));
      return;
    }
    let change: SpotChange;
    try {
      change = await port.revertToOnDemand(migration.launchTemplate, migration.previousVersion, { dryRun: false });
    } catch (error) {
      await deps.store.spotMigrations.transition(id, 'reverting', 'migrated', deps.clock());
      await deps.store.audit.record({ ...audit, result: 'failed', detail: (error as Error).message });
      throw error;
    }
    await deps.store.spotMigrations.completeRevert(id, { byUser: actor.userId, at: deps.clock(), detail: change.detail });
    await deps.store.audit.record({ ...audit, result: 'ok', detail: `${change.outcome}: ${change.detail}` });
    await interaction.reply.thread(spotReverted(label, (await deps.store.spotMigrations.get(id))!, actor.userId, change.detail));
  },
};
