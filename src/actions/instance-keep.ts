import { nextWorkingDayStart } from '../checks/idle/next-working-day.js';
import { DEFAULT_SCHEDULE } from '../checks/idle/team-schedule.js';
import { BurnrateError } from '../errors.js';
import type { ActionSpec } from './action.js';
import { authorizeInstanceAction, currentIdleAlertMessage, readInstancePayload } from './instance-alert.js';

const ACTION = 'instance.keep';
const FOUR_HOURS = 4 * 3_600_000;

/** "Keep 4 h" / "Keep until next working day": an expiring exception; the idle check leaves the instance alone until then. */
export const instanceKeepAction: ActionSpec = {
  id: ACTION,
  permissions: [],
  async run(deps, interaction) {
    const { payload, finding } = await readInstancePayload(deps, interaction.value);
    if (!payload.for) throw new BurnrateError('burnrate_payload_invalid', 'This Keep button does not say for how long.', 'Run `/burnrate idle` for a fresh view.');
    const { actor } = interaction;
    const now = deps.clock();
    const audit = { at: now, platform: actor.platform, userId: actor.userId, action: ACTION, subject: finding.id, detail: `${finding.instanceId} ${payload.for}` };
    await authorizeInstanceAction(deps, actor, finding, audit, 'keep running');
    const team = deps.config.teams.find((t) => t.id === finding.team);
    const schedule = team ? { timezone: team.timezone, workingHours: team.gpu.workingHours ?? deps.config.gpu.workingHours } : DEFAULT_SCHEDULE;
    const until = payload.for === '4h' ? new Date(now.getTime() + FOUR_HOURS) : nextWorkingDayStart(now, schedule);
    await deps.store.keeps.set({ instanceId: finding.instanceId, until, byUser: actor.userId, at: now });
    await deps.store.audit.record({ ...audit, result: 'ok', detail: `${finding.instanceId} until ${until.toISOString()}` });
    await interaction.reply.update(await currentIdleAlertMessage(deps, finding));
  },
};
