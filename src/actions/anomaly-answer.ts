import { z } from 'zod';
import { acceptedOf } from '../checks/anomalies/acceptances.js';
import type { Deps } from '../deps.js';
import type { AnomalyAnswer, ProviderAnomalyNote, TrackedAnomalyFinding } from '../domain/anomaly-finding.js';
import { providerFeedbackOf } from '../domain/provider-anomaly.js';
import { BurnrateError } from '../domain/errors.js';
import { runOperationAs, type Operation } from '../operations/operation.js';
import type { Actor, ActionInteraction } from '../ports/interaction.js';
import { privateReply } from '../../templates/private-reply.js';
import { defineAction, type ActionSpec } from './action.js';
import { parseButtonValue, unknownFinding } from './button-value.js';
import { findingAlertNow, findingById } from './finding-payload.js';
import { requireOwnerOrApprover } from './team-role.js';

// Expected and Not expected on an anomaly are one operation with two verdicts, from a button or
// typed (`/burnrate anomalies expected <id> <reason>`): the team's answer is recorded once (the
// first wins, a second says who answered), audited, and the alert redrawn with it. Expected also
// accepts the level of what moved (acceptedOf), which the next runs take off that driver's rises.

const payloadSchema = z.strictObject({
  f: z.string().min(1).max(200),
  /** Why (Expected): at most a line. */
  r: z.string().trim().max(300).optional(),
});

const REFRESH = '/burnrate anomalies';

interface AnswerRequest {
  finding: TrackedAnomalyFinding;
  verdict: AnomalyAnswer['verdict'];
  reason: string | undefined;
}

type AnswerOutcome = { answer: AnomalyAnswer; first: boolean };

/** The answer itself, audited under the button's id for the buttons and the typed command alike. */
function answerOperation(id: string): Operation<AnswerRequest, AnswerOutcome> {
  return {
    id,
    sideEffects: 'records',
    subject: ({ finding }) => ({ subject: finding.id }),
    async authorize({ deps, actor }, { finding }) {
      requireOwnerOrApprover(deps, actor.userId, finding.team, 'answer its anomalies');
    },
    async run({ deps, actor, now }, { finding, verdict, reason }) {
      const answer: AnomalyAnswer = {
        verdict,
        by: actor.userId,
        at: now.toISOString(),
        ...(reason ? { reason } : {}),
        // A provider's anomaly alone has no driver of burnrate's to accept: the provider learns from the feedback.
        ...(verdict === 'expected' && !finding.provider?.alone ? { accepted: acceptedOf(finding) } : {}),
      };
      const recorded = await deps.store.anomalyFindings.answer(finding.id, answer);
      if (!recorded) throw unknownFinding(REFRESH);
      // Only the first answer is sent on, so a double click sends one feedback.
      const sent = recorded.first && finding.provider ? await sendFeedback(deps, finding.provider, verdict) : null;
      return { audit: { result: recorded.first ? 'ok' : 'duplicate', detail: sent ? `${verdict}; ${sent}` : verdict }, value: recorded };
    },
  };
}

/**
 * The answer as the provider's feedback (providerFeedbackOf: Expected is planned activity, Not
 * expected a real anomaly); what happened, for the audit. A failure is logged and audited, never
 * undoes the answer recorded here.
 */
async function sendFeedback(deps: Deps, note: ProviderAnomalyNote, verdict: AnomalyAnswer['verdict']): Promise<string> {
  const feedback = providerFeedbackOf(verdict);
  const source = deps.anomalySources?.find((s) => s.id === note.source);
  if (!source) return `${note.label} feedback not sent: its source is no longer configured`;
  if (!source.feedback) return `${note.label} takes no feedback through its API: the answer is kept in burnrate only`;
  try {
    await source.feedback(note.id, feedback);
    return `${note.label} feedback ${feedback} on ${note.id}`;
  } catch (error) {
    deps.log.warn({ source: note.source, anomaly: note.id, err: (error as Error).message }, 'anomaly feedback not sent');
    return `${note.label} feedback ${feedback} on ${note.id} failed: ${(error as Error).message}`;
  }
}

/** The button of one verdict. */
export function anomalyAnswerAction(id: ActionSpec['id'], verdict: AnomalyAnswer['verdict']) {
  return defineAction({
    ...answerOperation(id),
    id,
    permissions: [],
    async parse(deps: Deps, interaction: ActionInteraction): Promise<AnswerRequest> {
      const payload = parseButtonValue(payloadSchema, interaction.value, REFRESH);
      const finding = await deps.store.anomalyFindings.get(payload.f);
      if (!finding) throw unknownFinding(REFRESH);
      return { finding, verdict, reason: payload.r || undefined };
    },
    async answer({ deps, interaction }, { finding }, { answer, first }) {
      if (!first) {
        await interaction.reply.private(privateReply(alreadyAnswered(answer)));
        return;
      }
      const handle = await findingById(deps, finding.id);
      const alert = handle ? await findingAlertNow(deps, handle, interaction.actor.platform) : null;
      if (alert) await interaction.reply.update(alert);
      else await interaction.reply.private(privateReply(`Answered: the spend anomaly of ${finding.started}.`));
    },
  });
}

/** A typed answer (`/burnrate anomalies expected <id> <reason>`), audited like the button. */
export async function answerAnomaly(
  deps: Deps,
  actor: Actor,
  id: ActionSpec['id'],
  request: { findingId: string; verdict: AnomalyAnswer['verdict']; reason?: string },
): Promise<AnswerOutcome & { finding: TrackedAnomalyFinding }> {
  const finding = await deps.store.anomalyFindings.get(request.findingId);
  if (!finding)
    throw new BurnrateError(
      'burnrate_finding_unknown',
      `There is no anomaly "${request.findingId}".`,
      'Copy its id from `/burnrate anomalies` (anomaly:<team>:<first day>), or use the buttons on its alert.',
    );
  const reason = request.reason?.trim().slice(0, 300) || undefined;
  return { ...(await runOperationAs(deps, actor, answerOperation(id), { finding, verdict: request.verdict, reason })), finding };
}

export function alreadyAnswered(answer: AnomalyAnswer): string {
  return `Already answered ${answer.verdict === 'expected' ? 'Expected' : 'Not expected'} by ${answer.by} at ${answer.at.slice(11, 16)} UTC.`;
}
