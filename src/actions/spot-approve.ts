import { groupsOf, personOf, personText } from '../ports/people-directory.js';
import { spotApproverRoles } from '../checks/recommend/recommend-policy.js';
import { whoMay } from '../snapshots/who-may.js';
import { askWhom } from './team-role.js';
import { currentLineMessage } from './review-line-action.js';
import type { ActionInteraction } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import { z } from 'zod';
import { parseButtonValue } from './button-value.js';
import { defineAction, type ActionContext } from './action.js';
import { DRY_RUN_HINT } from '../operations/operation.js';
import { claimOnce } from '../operations/claim-once.js';
import { launchTemplateOf, type SpotChange } from '../ports/spot-port.js';
import { spotPortOfInstance } from './spot-port-of.js';
import { spotReadiness } from '../checks/recommend/checkpointing.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { formatMoney } from '../domain/money.js';
import { BurnrateError } from '../domain/errors.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { ActionFailed, Refused, type Audited } from '../domain/audit-outcome.js';
import type { SpotMigration } from '../domain/spot-migration.js';
import { currentInstance, currentRecommendations } from '../snapshots/current-recommendations.js';
import { privateReply } from '../../templates/private-reply.js';
import { spotApprovalPending, spotMigrated } from '../../templates/spot-migration.js';

const ACTION = ACTION_IDS.spotApprove;
// l: the review line the button is on (absent on a recommendation's own message).
// `i`: an instance id, up to a cloud's full resource name (a Compute Engine VM's is about 120 characters, an Azure VM's up to 250).
const payloadSchema = z.strictObject({ i: z.string().min(1).max(300), l: z.number().int().positive().optional() });

type Checked = Awaited<ReturnType<typeof check>>;
type Approval =
  | { kind: 'dry-run'; text: string }
  | { kind: 'duplicate'; text: string }
  | { kind: 'pending'; label: string; migration: SpotMigration }
  | { kind: 'migrated'; label: string; migration: SpotMigration; detail: string };

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
 *   8. enough: claim the migration once (claimOnce: one click of many acts), change the launch
 *      template, post the result with Revert to on-demand in the thread
 * Steps 1 to 5 read the instance afresh on every click, so they run with the click itself; every
 * refusal among them is audited with its reason.
 */
export const spotApproveAction = defineAction({
  id: ACTION,
  permissions: [],
  ports: ['spot'],
  sideEffects: 'cloud',
  parse: async (_deps, interaction) => parseButtonValue(payloadSchema, interaction.value, '/burnrate recommend').i,
  subject: (instanceId) => ({ subject: instanceId }),
  async authorize() {},
  async dryRun(ctx, instanceId): Promise<Audited<Approval>> {
    const { label, launchTemplate, port, approvalsNeeded, saving } = await check(ctx, instanceId);
    const earlier = await ctx.deps.store.spotMigrations.active(instanceId);
    const done = earlier?.approvals.length ?? 0;
    const completes = done + 1 >= approvalsNeeded;
    const result = completes ? await port.moveToSpot(launchTemplate, { dryRun: true, description: '' }) : null;
    const what = completes
      ? `would have moved ${label} to spot (${result!.detail})`
      : `would have recorded your approval: moving ${label} to spot saves ${saving} a month, so a second approver is needed`;
    return {
      audit: { result: 'dry-run', detail: result?.detail ?? `approval ${done + 1} of ${approvalsNeeded}` },
      value: { kind: 'dry-run', text: `Dry run: burnrate ${what}. Nothing was changed or recorded.` },
    };
  },
  async run(ctx, instanceId): Promise<Audited<Approval>> {
    return approve(ctx, instanceId, await check(ctx, instanceId));
  },
  async answer({ deps, interaction }, _instanceId, outcome) {
    const person = (userId: string) => personOf(deps, userId);
    if (outcome.kind === 'dry-run') await interaction.reply.private(privateReply(outcome.text, DRY_RUN_HINT));
    else if (outcome.kind === 'duplicate') await interaction.reply.private(privateReply(outcome.text));
    else if (outcome.kind === 'pending') {
      const approved = new Set(outcome.migration.approvals.map((a) => personText(deps, a.approver)));
      const mayApprove = whoMay(deps, outcome.migration.team, spotApproverRoles(deps.config.spot)).filter((name) => !approved.has(name));
      await interaction.reply.thread(spotApprovalPending(outcome.label, outcome.migration, { person, mayApprove }));
    } else {
      await interaction.reply.thread(spotMigrated(outcome.label, outcome.migration, outcome.detail, undefined, { person }));
      await dropApproveButton(deps, interaction);
    }
  },
});

/** Steps 1 to 5: the instance as it is now may be moved to spot by this clicker; each refusal names its reason. */
async function check({ deps, interaction }: ActionContext, instanceId: string) {
  const refuse = (detail: string, error: BurnrateError): never => {
    throw new Refused(error, detail);
  };
  const instance = await currentInstance(deps, instanceId);
  if (!instance)
    return refuse(
      'unknown instance',
      new BurnrateError(
        'burnrate_instance_unknown',
        `burnrate's inventory has no instance ${instanceId} any more.`,
        'It may have been terminated; nothing was changed.',
      ),
    );
  const label = instance.name ?? instance.instanceId;
  const team = deps.config.teams.find((t) => t.id === instance.team);
  const roles = spotApproverRoles(deps.config.spot);
  if (!hasRole(rolesOf(deps.config, interaction.actor.userId, groupsOf(deps)), instance.team, roles))
    return refuse(
      'not an approver',
      new BurnrateError(
        'burnrate_forbidden',
        `Only ${roles.includes('owner') ? 'owners and approvers' : 'approvers'} of ${team?.name ?? instance.team} can approve moving ${label} to spot.`,
        askWhom(deps, instance.team, roles),
      ),
    );

  const readiness = spotReadiness(instance, deps.config.spot.maxCheckpointMinutes, label);
  if (!readiness.ready)
    return refuse(
      readiness.reason,
      new BurnrateError(`burnrate_spot_${readiness.reason.replace(/-/g, '_')}`, `Not approved: ${readiness.message}`, readiness.hint),
    );

  const recommendation = (await currentRecommendations(deps, { instanceIds: [instanceId] })).find((r) => r.kind === 'spot');
  if (!recommendation)
    return refuse(
      'no spot recommendation',
      new BurnrateError(
        'burnrate_spot_not_recommended',
        `Not approved: burnrate has no spot recommendation for ${label} now.`,
        'The price catalog has no spot price for its type and region, or it has not run lately.',
      ),
    );
  const port = await spotPortOfInstance(deps, instance);
  // Where the cloud itself rules the move out (an Azure VM outside a scale set with a Spot mix), say so before anyone approves.
  const unsupported = await port?.unsupported?.(instance);
  if (unsupported) return refuse('cannot move', unsupported);
  const launchTemplate = launchTemplateOf(instance.tags);
  if (!launchTemplate)
    return refuse(
      'no launch template',
      new BurnrateError(
        'burnrate_spot_no_launch_template',
        `Not approved: burnrate does not know which launch template starts ${label}.`,
        'Tag the instance burnrate:launch-template=lt-... (instances launched from a template carry aws:ec2launchtemplate:id already).',
      ),
    );
  if (!port)
    return refuse(
      'no spot port',
      new BurnrateError(
        'burnrate_spot_unsupported',
        `Not approved: burnrate cannot change launch templates of ${label} (${instance.provider}, ${instance.region}).`,
        "Spot migrations run on EC2 launch templates: list the instance's AWS region under gpu.inventory in burnrate.yml.",
      ),
    );
  const approvalsNeeded: 1 | 2 = recommendation.monthlySaving > deps.config.spot.secondApproverAbove ? 2 : 1;
  return {
    instance,
    label,
    team,
    recommendation,
    launchTemplate,
    port,
    approvalsNeeded,
    saving: formatMoney(recommendation.monthlySaving, 'USD'),
  };
}

/** Steps 7 and 8: the approval recorded, and the migration made once enough approvers agreed. */
async function approve({ deps, interaction }: ActionContext, instanceId: string, checked: Checked): Promise<Audited<Approval>> {
  const { instance, label, team, recommendation, launchTemplate, port, approvalsNeeded } = checked;
  const migrations = deps.store.spotMigrations;
  const { outcome, migration } = await migrations.approve({
    instanceId,
    team: instance.team,
    launchTemplate,
    place: port.place,
    monthlySaving: recommendation.monthlySaving,
    approvalsNeeded,
    approver: interaction.actor.userId,
    at: deps.clock(),
  });
  if (outcome === 'same-approver')
    throw new Refused(
      new BurnrateError(
        'burnrate_spot_same_approver',
        `You already approved moving ${label} to spot.`,
        `It saves ${formatMoney(migration.monthlySaving, 'USD')} a month, so a second, different approver of ${team?.name ?? instance.team} must approve it too. ${askWhom(deps, instance.team, spotApproverRoles(deps.config.spot))}`,
      ),
      'same approver twice',
    );
  // A migration claimed long ago and never finished died with its process: the next click finishes it (the port is idempotent).
  const claimed = await claimOnce(deps.clock(), {
    earlier: outcome === 'not-approving' ? migration : null,
    unfinished: (m) => m.state === 'migrating',
    takeOver: async (m, staleBefore) => ((await migrations.reclaimStale(m.id, 'migrating', staleBefore, deps.clock())) ? 'resumed' : null),
    before: async () => (migration.approvals.length < migration.approvalsNeeded ? ('pending' as const) : null),
    claim: async () => ({ first: await migrations.transition(migration.id, 'approving', 'migrating', deps.clock()), record: migration }),
  });
  if (claimed.kind === 'ended')
    return {
      audit: { result: 'ok', detail: `approval ${migration.approvals.length} of ${migration.approvalsNeeded}` },
      value: { kind: 'pending', label, migration },
    };
  if (claimed.kind === 'duplicate')
    return claimed.lostRace
      ? {
          audit: { result: 'duplicate', detail: 'another approval is executing it' },
          value: { kind: 'duplicate', text: `${label} is being moved to spot already.` },
        }
      : {
          audit: { result: 'duplicate', detail: migration.state },
          value: {
            kind: 'duplicate',
            text: `${label} is already ${migration.state === 'migrated' ? 'moved' : 'moving'} to spot (approved by ${migration.approvals.map((a) => personText(deps, a.approver)).join(' and ')}).`,
          },
        };
  let change: SpotChange;
  try {
    change = await port.moveToSpot(launchTemplate, {
      dryRun: false,
      description: `burnrate: spot for ${label} (${instanceId}), approved by ${migration.approvals.map((a) => a.approver).join(', ')}`,
    });
  } catch (error) {
    await migrations.transition(migration.id, 'migrating', 'approving', deps.clock());
    throw new ActionFailed((error as Error).message, error);
  }
  await migrations.completeMigration(migration.id, {
    previousVersion: change.previousVersion,
    spotVersion: change.currentVersion,
    at: deps.clock(),
    detail: change.detail,
  });
  return {
    audit: { result: 'ok', detail: `${change.outcome}: ${change.detail}` },
    value: { kind: 'migrated', label, migration: (await migrations.get(migration.id))!, detail: change.detail },
  };
}

/** A review line whose migration is made loses its Approve spot migration button (the thread has Revert). */
async function dropApproveButton(deps: Deps, interaction: ActionInteraction): Promise<void> {
  const line = payloadSchema.safeParse(safeJson(interaction.value)).data?.l;
  const tracked = line === undefined ? null : await deps.store.reviews.line(line);
  if (tracked) await interaction.reply.update(await currentLineMessage(deps, tracked));
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}
