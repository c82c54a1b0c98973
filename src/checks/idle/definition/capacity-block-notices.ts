import type { Deps } from '../../../deps.js';
import { fanOut } from '../../../outbox/fan-out.js';
import type { OutboxDraft } from '../../../store/outbox-records.js';
import { capacityBlockEndNotice } from '../../../../templates/capacity-block-end.js';
import type { CapacityBlockEnd } from '../capacity-block-ends.js';

/**
 * Each Capacity Block's end told to the instance's team once per lead (the key names the instance,
 * the block's end and the lead): the check runs every few minutes, the outbox queues a key once. An
 * instance of no configured team is told to nobody (its idle alert already goes to no channel).
 */
export function capacityBlockNotices(deps: Deps, ends: readonly CapacityBlockEnd[]): OutboxDraft[] {
  if (deps.chat.length === 0) return [];
  return ends.flatMap((end) => {
    const team = deps.config.teams.find((t) => t.id === end.team);
    if (!team) return [];
    return fanOut(
      deps.chat,
      team,
      `gpu.capacity-block-end:${end.instanceId}:${end.until}:${end.lead}`,
      capacityBlockEndNotice(team.name ?? team.id, end),
    );
  });
}
