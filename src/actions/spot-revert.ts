import { askWhom } from './team-role.js';
import { groupsOf, personOf, personText } from '../ports/people-directory.js';
import { z } from 'zod';
import { parseButtonValue } from './button-value.js';
import { defineAction, type ActionContext } from './action.js';
import { DRY_RUN_HINT } from '../operations/operation.js';
import { STALE_CLAIM_MS } from '../operations/claim-once.js';
import { spotPortOfMigration } from './spot-port-of.js';
import type { SpotChange } from '../ports/spot-port.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { timeOf } from '../../templates/message.js';
import { BurnrateError } from '../domain/errors.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { ActionFailed, Refused, type Audited } from '../domain/audit-outcome.js';
import type { SpotMigration } from '../domain/spot-migration.js';
import { privateReply } from '../../templates/private-reply.js';
import { spotMigrated, spotReverted } from '../../templates/spot-migration.js';

const ACTION = ACTION_IDS.spotRevert;
const payloadSchema = z.strictObject({ m: z.number().int().positive() });

type Revert =
  | { kind: 'private'; text: string; hint?: string }
  | { kind: 'reverted'; label: string; migration: SpotMigration; detail: string };
type Target = { migration: SpotMigration; label: string };

/**
 * "Revert to on-demand": the launch template's default goes back to the version it had before the
 * migration, through the port the migration was made through (the demo, or EC2 in its region). Owners and approvers of the team (and admins) may revert: it is the safe direction.
 * Dry run while actions.enabled is false; a second click finds it reverted and does nothing; audited.
 */
export const spotRevertAction = defineAction({
  id: ACTION,
  permissions: [],
  ports: ['spot'],
  sideEffects: 'cloud',
  async parse(deps, interaction): Promise<Target> {
    const { m: id } = parseButtonValue(payloadSchema, interaction.value, '/burnrate recommend');
    const migration = await deps.store.spotMigrations.get(id);
    if (!migration)
      throw new BurnrateError(
        'burnrate_finding_unknown',
        'This spot migration is not known to burnrate.',
        'It may come from another installation or a reset database; nothing was changed.',
      );
    const inventory = await deps.gpu?.inventory();
    return { migration, label: inventory?.instances.find((i) => i.instanceId === migration.instanceId)?.name ?? migration.instanceId };
  },
  subject: ({ migration }) => ({ subject: `spot-migration:${migration.id}` }),
  async authorize({ deps, interaction }, { migration, label }) {
    if (!hasRole(rolesOf(deps.config, interaction.actor.userId, groupsOf(deps)), migration.team, ['owner', 'approver'])) {
      const team = deps.config.teams.find((t) => t.id === migration.team);
      throw new Refused(
        new BurnrateError(
          'burnrate_forbidden',
          `Only owners and approvers of ${team?.name ?? migration.team} can revert ${label} to on-demand.`,
          askWhom(deps, migration.team, ['owner', 'approver']),
        ),
        'not an owner or approver',
      );
    }
  },
  async dryRun(ctx, target): Promise<Audited<Revert>> {
    const ready = await prepare(ctx, target);
    if (ready.kind === 'done') return ready.outcome;
    const result = await ready.port.revertToOnDemand(target.migration.launchTemplate, ready.previousVersion, { dryRun: true });
    return {
      audit: { result: 'dry-run', detail: result.detail },
      value: {
        kind: 'private',
        text: `Dry run: burnrate would have reverted ${target.label} to on-demand (${result.detail}).`,
        hint: DRY_RUN_HINT,
      },
    };
  },
  async run(ctx, target): Promise<Audited<Revert>> {
    const ready = await prepare(ctx, target);
    if (ready.kind === 'done') return ready.outcome;
    const { deps, interaction } = ctx;
    const { migration, label } = target;
    const id = migration.id;
    if (!ready.resumed && !(await deps.store.spotMigrations.transition(id, 'migrated', 'reverting', deps.clock())))
      return { audit: { result: 'duplicate' }, value: { kind: 'private', text: `${label} is being reverted already.` } };
    let change: SpotChange;
    try {
      change = await ready.port.revertToOnDemand(migration.launchTemplate, ready.previousVersion, { dryRun: false });
    } catch (error) {
      await deps.store.spotMigrations.transition(id, 'reverting', 'migrated', deps.clock());
      throw new ActionFailed((error as Error).message, error);
    }
    await deps.store.spotMigrations.completeRevert(id, { byUser: interaction.actor.userId, at: deps.clock(), detail: change.detail });
    return {
      audit: { result: 'ok', detail: `${change.outcome}: ${change.detail}` },
      value: { kind: 'reverted', label, migration: (await deps.store.spotMigrations.get(id))!, detail: change.detail },
    };
  },
  async answer({ deps, interaction }, _target, outcome) {
    if (outcome.kind === 'private') {
      await interaction.reply.private(privateReply(outcome.text, outcome.hint));
      return;
    }
    // The message clicked loses its Revert button and says who reverted; the thread says what changed.
    const { label, migration } = outcome;
    const by = personOf(deps, interaction.actor.userId, interaction.actor.platform);
    await interaction.reply.update(
      spotMigrated(label, migration, `launch template ${migration.launchTemplate}`, { by, at: migration.revertedAt ?? deps.clock() }),
    );
    await interaction.reply.thread(spotReverted(label, migration, by, outcome.detail));
  },
});

/**
 * What a revert and its dry run both check first: a revert already done or running is a duplicate
 * (one left unfinished for STALE_CLAIM_MS died with its process and is taken over), then the
 * migration must have happened and its port be reachable.
 */
async function prepare({ deps }: ActionContext, { migration, label }: Target) {
  const resumed =
    migration.state === 'reverting' &&
    (await deps.store.spotMigrations.reclaimStale(
      migration.id,
      'reverting',
      new Date(deps.clock().getTime() - STALE_CLAIM_MS),
      deps.clock(),
    ));
  if (migration.state === 'reverted' || (migration.state === 'reverting' && !resumed)) {
    const when = migration.revertedAt ? ` at ${timeOf(migration.revertedAt)}` : '';
    const text =
      migration.state === 'reverted'
        ? `Already reverted to on-demand by ${personText(deps, migration.revertedBy ?? '')}${when}.`
        : `${label} is being reverted already.`;
    return { kind: 'done' as const, outcome: { audit: { result: 'duplicate' as const }, value: { kind: 'private' as const, text } } };
  }
  if ((migration.state !== 'migrated' && !resumed) || migration.previousVersion === null)
    throw new BurnrateError('burnrate_spot_not_migrated', `${label} has not been moved to spot, so there is nothing to revert.`);
  return { kind: 'ready' as const, resumed, previousVersion: migration.previousVersion, port: await spotPortOfMigration(deps, migration) };
}
