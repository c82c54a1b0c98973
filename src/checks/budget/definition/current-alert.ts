import { alertGroup } from '../../reconcile.js';
import type { Deps } from '../../../deps.js';
import type { TrackedFinding } from '../../../domain/finding.js';
import { mentionOf } from '../../../ports/people-directory.js';
import { budgetAlert } from '../../../../templates/budget-alert.js';
import type { Mention, Message } from '../../../../templates/message.js';

/**
 * The alert as it should look on `platform` now: the finding's latest figures, who acknowledged or
 * snoozed it (named as that platform names people), and the buttons that state leaves.
 */
export async function currentAlertMessage(deps: Deps, finding: TrackedFinding, platform: string): Promise<Message> {
  const now = deps.clock();
  const [ack, snoozes] = await Promise.all([deps.store.acknowledgements.get(finding.id), deps.store.snoozes.active(now)]);
  const snooze = snoozes.find((s) => s.groupKey === alertGroup(finding));
  const people = deps.chat.find((port) => port.platform === platform)?.people;
  const person = (userId: string): Mention => mentionOf(people, userId);
  const team = deps.config.teams.find((t) => t.id === finding.team);
  return budgetAlert({
    finding,
    teamName: team?.name ?? finding.team,
    event: finding.state === 'resolved' ? 'resolved' : 'new',
    previousThreshold: null,
    acknowledged: ack ? { by: person(ack.byUser), at: ack.at } : undefined,
    snoozed: snooze ? { by: person(snooze.byUser), at: snooze.at, until: snooze.until } : undefined,
  });
}
