import { personText } from '../ports/people-directory.js';
import { nextWorkingDayStart } from '../checks/idle/next-working-day.js';
import { DEFAULT_SCHEDULE } from '../checks/idle/team-schedule.js';
import { timeOf } from '../../templates/message.js';
import { BurnrateError } from '../domain/errors.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import type { KeepException } from '../domain/keep-exception.js';
import { privateReply } from '../../templates/private-reply.js';
import { defineAction } from './action.js';
import type { Deps } from '../deps.js';
import { workloadRefOf } from '../domain/kubernetes.js';
import { authorizeInstanceAction, currentIdleAlertMessage, readInstancePayload } from './instance-alert.js';

const FOUR_HOURS = 4 * 3_600_000;

/**
 * "Keep 4 h" / "Keep until next working day": an expiring exception; the idle check leaves the
 * instance alone until then. Once per click, like Snooze: while a keep runs, a click that would not
 * end it later (a repeated or replayed click, Keep 4 h under a keep to the next working day) and a
 * second Keep 4 h (a replay would otherwise push the end by the minutes in between) change nothing
 * and say who kept it until when. A longer keep replaces a shorter one.
 */
export const instanceKeepAction = defineAction({
  id: ACTION_IDS.instanceKeep,
  permissions: [],
  sideEffects: 'records',
  async parse(deps, interaction) {
    const { payload, finding } = await readInstancePayload(deps, interaction.value);
    if (!payload.for)
      throw new BurnrateError(
        'burnrate_payload_invalid',
        'This Keep button does not say for how long.',
        'Run `/burnrate idle` for a fresh view.',
      );
    return { finding, keepFor: payload.for };
  },
  subject: ({ finding, keepFor }) => ({ subject: finding.id, detail: `${finding.instanceId} ${keepFor}` }),
  async authorize({ deps, interaction, audit }, { finding }) {
    authorizeInstanceAction(deps, interaction.actor, finding, audit, 'keep running');
  },
  async run({ deps, interaction, now }, { finding, keepFor }) {
    const team = deps.config.teams.find((t) => t.id === finding.team);
    const schedule = team
      ? { timezone: team.timezone, workingHours: team.gpu.workingHours ?? deps.config.gpu.workingHours }
      : DEFAULT_SCHEDULE;
    const until = keepFor === '4h' ? new Date(now.getTime() + FOUR_HOURS) : nextWorkingDayStart(now, schedule);
    const earlier = (await deps.store.keeps.active(now)).find((k) => k.instanceId === finding.instanceId);
    if (earlier && (earlier.until >= until || (keepFor === '4h' && isFourHourKeep(earlier)))) {
      return {
        audit: {
          result: 'duplicate',
          detail: `${finding.instanceId} already kept by ${earlier.byUser} until ${earlier.until.toISOString()}`,
        },
        value: earlier as KeepException | null,
      };
    }
    await deps.store.keeps.set({ instanceId: finding.instanceId, until, byUser: interaction.actor.userId, at: now });
    await keepOnWorkload(deps, finding.instanceId, until, interaction.actor.userId);
    return { audit: { result: 'ok', detail: `${finding.instanceId} until ${until.toISOString()}` }, value: null };
  },
  async answer({ deps, interaction }, { finding }, earlier) {
    if (earlier) {
      await interaction.reply.private(
        privateReply(
          `Already kept running by ${personText(deps, earlier.byUser)} at ${timeOf(earlier.at)} until ${timeOf(earlier.until)}.`,
        ),
      );
      return;
    }
    await interaction.reply.update(await currentIdleAlertMessage(deps, finding));
  },
});

/**
 * A Kubernetes workload also carries its keep (`burnrate.io/keep-until`, with who), so a check on
 * another installation, or someone reading the cluster, sees it. Only with actions enabled: until
 * then burnrate changes nothing in a cluster. The keep is recorded either way; a failed write is
 * logged, not the click's failure.
 */
async function keepOnWorkload(deps: Deps, instanceId: string, until: Date, byUser: string): Promise<void> {
  const ref = workloadRefOf(instanceId);
  if (!ref || !deps.gpu?.workloads || !deps.config.actions.enabled) return;
  await deps.gpu.workloads.keep(ref, until, byUser).catch((error: unknown) => {
    deps.log.warn({ instance: instanceId, err: (error as Error).message }, 'the keep could not be written on the workload');
  });
}

/** A keep made by Keep 4 h: the table keeps no button, but that button alone ends exactly 4 h after the click. */
function isFourHourKeep(keep: KeepException): boolean {
  return keep.until.getTime() - keep.at.getTime() === FOUR_HOURS;
}
