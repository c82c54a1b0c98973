import { nextWorkingDayStart } from '../checks/idle/next-working-day.js';
import { DEFAULT_SCHEDULE } from '../checks/idle/team-schedule.js';
import { utcMinute } from '../domain/utc-minute.js';
import { BurnrateError } from '../domain/errors.js';
import type { KeepException } from '../domain/keep-exception.js';
import { errorMessage } from '../../templates/error-message.js';
import type { ActionSpec } from './action.js';
import { authorizeInstanceAction, currentIdleAlertMessage, readInstancePayload } from './instance-alert.js';

const ACTION = 'instance.keep';
const FOUR_HOURS = 4 * 3_600_000;

/**
 * "Keep 4 h" / "Keep until next working day": an expiring exception; the idle check leaves the
 * instance alone until then. Once per click, like Snooze: while a keep runs, a click that would not
 * end it later (a repeated or replayed click, Keep 4 h under a keep to the next working day) and a
 * second Keep 4 h (a replay would otherwise push the end by the minutes in between) change nothing
 * and say who kept it until when. A longer keep replaces a shorter one.
 */
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
    const earlier = (await deps.store.keeps.active(now)).find((k) => k.instanceId === finding.instanceId);
    if (earlier && (earlier.until >= until || (payload.for === '4h' && isFourHourKeep(earlier)))) {
      await deps.store.audit.record({ ...audit, result: 'duplicate', detail: `${finding.instanceId} already kept by ${earlier.byUser} until ${earlier.until.toISOString()}` });
      await interaction.reply.private(errorMessage(`Already kept running by ${earlier.byUser} at ${utcMinute(earlier.at)} until ${utcMinute(earlier.until)}.`));
      return;
    }
    await deps.store.keeps.set({ instanceId: finding.instanceId, until, byUser: actor.userId, at: now });
    await deps.store.audit.record({ ...audit, result: 'ok', detail: `${finding.instanceId} until ${until.toISOString()}` });
    await interaction.reply.update(await currentIdleAlertMessage(deps, finding));
  },
};

/** A keep made by Keep 4 h: the table keeps no button, but that button alone ends exactly 4 h after the click. */
function isFourHourKeep(keep: KeepException): boolean {
  return keep.until.getTime() - keep.at.getTime() === FOUR_HOURS;
}
