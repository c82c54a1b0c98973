import { z } from 'zod';
import { acceptedOf } from '../checks/anomalies/acceptances.js';
import type { Deps } from '../deps.js';
import type { AnomalyAnswer, TrackedAnomalyFinding } from '../domain/anomaly-finding.js';
import type { ActionInteraction } from '../ports/interaction.js';
import { privateReply } from '../../templates/private-reply.js';
import { defineAction, type ActionSpec } from './action.js';
import { parseButtonValue, unknownFinding } from './button-value.js';
import { findingAlertNow, findingById } from './finding-payload.js';
import { requireOwnerOrApprover } from './team-role.js';

// Expected and Not expected on an anomaly alert are one operation with two verdicts: the team's
// answer is recorded once (the first click wins, a second says who answered), audited, and the
// alert redrawn with it. Expected also accepts the level of what moved (acceptedOf), which the
// next runs take off that driver's rises.

const payloadSchema = z.strictObject({
  f: z.string().min(1).max(200),
  /** Why (Expected): at most a line. */
  r: z.string().trim().max(300).optional(),
});

const REFRESH = '/burnrate anomalies';

interface Payload {
  finding: TrackedAnomalyFinding;
  reason: string | undefined;
}

async function parse(deps: Deps, interaction: ActionInteraction): Promise<Payload> {
  const payload = parseButtonValue(payloadSchema, interaction.value, REFRESH);
  const finding = await deps.store.anomalyFindings.get(payload.f);
  if (!finding) throw unknownFinding(REFRESH);
  return { finding, reason: payload.r || undefined };
}

/** The button of one verdict. */
export function anomalyAnswerAction(id: ActionSpec['id'], verdict: AnomalyAnswer['verdict']) {
  return defineAction({
    id,
    permissions: [],
    sideEffects: 'records',
    parse,
    subject: ({ finding }) => ({ subject: finding.id }),
    async authorize({ deps, interaction }, { finding }) {
      requireOwnerOrApprover(deps, interaction.actor.userId, finding.team, 'answer its anomalies');
    },
    async run({ deps, interaction }, { finding, reason }) {
      const answer: AnomalyAnswer = {
        verdict,
        by: interaction.actor.userId,
        at: deps.clock().toISOString(),
        ...(reason ? { reason } : {}),
        ...(verdict === 'expected' ? { accepted: acceptedOf(finding) } : {}),
      };
      const recorded = await deps.store.anomalyFindings.answer(finding.id, answer);
      if (!recorded) throw unknownFinding(REFRESH);
      return { audit: { result: recorded.first ? 'ok' : 'duplicate', detail: verdict }, value: recorded };
    },
    async answer({ deps, interaction }, { finding }, { answer, first }) {
      if (!first) {
        const said = answer.verdict === 'expected' ? 'Expected' : 'Not expected';
        await interaction.reply.private(privateReply(`Already answered ${said} by ${answer.by} at ${answer.at.slice(11, 16)} UTC.`));
        return;
      }
      const handle = await findingById(deps, finding.id);
      const alert = handle ? await findingAlertNow(deps, handle, interaction.actor.platform) : null;
      if (alert) await interaction.reply.update(alert);
      else await interaction.reply.private(privateReply(`Answered: the spend anomaly of ${finding.started}.`));
    },
  });
}
