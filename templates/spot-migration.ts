import { formatMoney } from '../src/domain/money.js';
import type { SpotMigration } from '../src/domain/spot-migration.js';
import { personIn, timeOf, type Mention, type Message } from './message.js';
import { SPOT_ACTIONS } from './recommendation.js';

const money = (n: number) => formatMoney(n, 'USD');

/** How a spot message names people: who approved (by user id), and who may still approve (named text). */
export interface SpotPeople {
  person?: (userId: string) => Mention;
  /** The team's other approvers (personIn), who a pending migration waits for. */
  mayApprove?: readonly string[];
}

function approversOf(migration: SpotMigration, people: SpotPeople): string[] {
  return migration.approvals.map((a) => personIn(people.person?.(a.approver) ?? { id: null, name: a.approver, group: false }));
}

/**
 * An approval recorded that is not yet enough, short enough for a phone: who approved, what it saves,
 * and who may give the second, different approval (or that only an admin can).
 */
export function spotApprovalPending(label: string, migration: SpotMigration, people: SpotPeople = {}): Message {
  const who = approversOf(migration, people).join(', ');
  const next =
    people.mayApprove === undefined
      ? ', a second, different approver is needed.'
      : people.mayApprove.length > 0
        ? `, a second, different approver is needed. Waiting for ${people.mayApprove.join(', ')}.`
        : '. Nobody else of the team may approve it: an admin can.';
  const text = `**${label}** to spot: approved by ${who} (${migration.approvals.length} of ${migration.approvalsNeeded}); saving ${money(migration.monthlySaving)} a month${next}`;
  return {
    summary: `Spot migration of ${label}: ${migration.approvals.length} of ${migration.approvalsNeeded} approvals`,
    blocks: [{ type: 'text', text }],
  };
}

/**
 * The launch template now requests spot: what changed, who approved, and the Revert button; once
 * reverted (`reverted`), a line saying who reverted it when, and no button.
 */
export function spotMigrated(
  label: string,
  migration: SpotMigration,
  detail: string,
  reverted?: { by: Mention; at: Date },
  people: SpotPeople = {},
): Message {
  const who = approversOf(migration, people).join(' and ');
  return {
    summary: `${label} moves to spot: saves ${money(migration.monthlySaving)} a month`,
    blocks: [
      {
        type: 'text',
        text: `**${label}** moves to spot, approved by ${who}: about ${money(migration.monthlySaving)} a month saved. Its next launch runs on spot capacity.`,
      },
      { type: 'context', text: `${detail} · ${timeOf(migration.migratedAt ?? migration.createdAt)}` },
      reverted
        ? { type: 'mentions', lead: `Reverted to on-demand ${timeOf(reverted.at)} by`, people: [reverted.by] }
        : {
            type: 'actions',
            buttons: [
              {
                action: SPOT_ACTIONS.revert,
                label: 'Revert to on-demand',
                value: JSON.stringify({ m: migration.id }),
                style: 'danger',
                confirm: {
                  title: `Revert ${label} to on-demand?`.slice(0, 100),
                  text: `Launch template ${migration.launchTemplate} gets its on-demand default version ${migration.previousVersion ?? ''} back.`,
                  confirm: 'Revert',
                  deny: 'Cancel',
                },
              },
            ],
          },
    ],
  };
}

/** The launch template is back on demand. */
export function spotReverted(label: string, migration: SpotMigration, by: Mention, detail: string): Message {
  return {
    summary: `${label} is back on on-demand capacity`,
    blocks: [
      { type: 'text', text: `**${label}** is back on on-demand capacity, reverted by ${personIn(by)}. Its next launch runs on demand.` },
      { type: 'context', text: `${detail} · ${timeOf(migration.revertedAt ?? new Date(0))}` },
    ],
  };
}
