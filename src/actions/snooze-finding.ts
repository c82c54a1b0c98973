import type { Actor } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import type { FindingHandle } from '../checks/definition.js';
import { findingById } from './finding-payload.js';
import { BurnrateError } from '../domain/errors.js';
import { runOperationAs, type Operation } from '../operations/operation.js';
import { requireOwnerOrApprover } from './team-role.js';
import type { Snooze, SnoozeOutcome } from '../domain/snooze.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const MAX_MS = 31 * 86_400_000;

/** `24h`, `7d`, `2w`, `90m`, or `period` (until the finding's period ends; none for a finding without one). */
export function parseSnoozeDuration(text: string, finding: { range: { end: string | null } }, now: Date): Date | null {
  const value = text.trim().toLowerCase();
  if (value === 'period') return finding.range.end === null ? null : new Date(`${finding.range.end}T00:00:00Z`);
  const match = /^(\d+)\s*([mhdw])$/.exec(value);
  if (!match) return null;
  const ms = Number(match[1]) * UNITS[match[2]!]!;
  return ms > 0 && ms <= MAX_MS ? new Date(now.getTime() + ms) : null;
}

export interface SnoozeResult {
  finding: FindingHandle;
  /** The end of the snooze in force after the request (the earlier one's when nothing changed). */
  until: Date;
  /** set: applied; same: that duration already runs (a repeated click); longer: a later-ending snooze was kept. */
  outcome: SnoozeOutcome['kind'];
  /** The snooze in force: the new one, or the earlier one that was kept. */
  snooze: Snooze;
}

interface SnoozeRequest {
  finding: FindingHandle;
  duration: string;
  explicit: boolean;
}

/** The snooze itself, audited as `snooze` by runOperation for the command and the buttons alike. */
const snoozeOperation: Operation<SnoozeRequest, SnoozeResult> = {
  id: 'snooze',
  sideEffects: 'records',
  subject: ({ finding, duration }) => ({ subject: finding.id, detail: duration }),
  async authorize({ deps, actor }, { finding }) {
    requireOwnerOrApprover(deps, actor.userId, finding.team, 'snooze its alerts');
  },
  async run({ actor, now, deps }, { finding, duration, explicit }) {
    const until = parseSnoozeDuration(duration, { range: { end: finding.periodEnd } }, now);
    if (!until)
      throw new BurnrateError(
        'burnrate_usage',
        `"${duration}" is not a snooze duration.`,
        finding.periodEnd === null
          ? 'Use 24h, 7d or 2w (at most 31 days): this finding has no period.'
          : 'Use 24h, 7d, 2w (at most 31 days) or period.',
      );
    const asked = duration.trim().toLowerCase();
    const outcome = await deps.store.snoozes.request(
      { groupKey: finding.group, until, byUser: actor.userId, at: now, duration: asked },
      { explicit },
    );
    const kept = outcome.snooze;
    const detail =
      outcome.kind === 'set'
        ? `until ${until.toISOString()}${outcome.replaced ? ` (replaced ${outcome.replaced.byUser}'s until ${outcome.replaced.until.toISOString()})` : ''}`
        : `${asked} not applied: ${outcome.kind === 'same' ? 'already snoozed' : 'a longer snooze runs'} by ${kept.byUser} until ${kept.until.toISOString()}`;
    const result: SnoozeResult = { finding, until: kept.until, outcome: outcome.kind, snooze: kept };
    return { audit: { result: outcome.kind === 'set' ? 'ok' : 'duplicate', detail }, value: result };
  },
};

/**
 * Silences a finding's alert group (for a budget finding its team, kind and period; each check
 * says what its group is) until a time: owners, approvers
 * and admins only; audited either way (as `snooze`, from the command and the buttons alike).
 *
 * Buttons (`explicit: false`) act once per click. While a snooze runs, a click of the button for
 * the same duration (a double click, a platform retry or replay, the same button on another copy
 * of the alert) does nothing and is audited as a duplicate; a click that would end the snooze
 * sooner (Snooze 24 h while 7 days run) keeps the longer one and says so. A later click after the
 * snooze ended is a new snooze. Shortening is an explicit request: the typed command
 * (`/burnrate snooze <finding> 24h`, the default here) sets exactly the end asked for.
 */
export async function snoozeFinding(
  deps: Deps,
  actor: Actor,
  findingId: string,
  duration: string,
  options: { explicit: boolean } = { explicit: true },
): Promise<SnoozeResult> {
  const finding = await findingById(deps, findingId);
  if (!finding)
    throw new BurnrateError(
      'burnrate_finding_unknown',
      `There is no finding "${findingId}".`,
      'Copy the finding id from the alert (its last line), or use the Snooze buttons on it.',
    );
  const request = { finding, duration, explicit: options.explicit };
  return runOperationAs(deps, actor, snoozeOperation, request);
}
