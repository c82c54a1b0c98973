import type { ProposedAction } from '../src/domain/action-proposal.js';
import { ACTION_IDS } from '../src/domain/action-ids.js';
import { timeOf, type Message } from './message.js';

export interface ProposalLead {
  /** The proposal's id: what its Dismiss button names. */
  id: string;
  action: ProposedAction;
  /** The person the assistant acts for, as the platform names them. */
  proposer: string;
  instance: string;
  /** What the figures say, as the alert itself words them: "idle 14 h, $62.00/day", "saves $5,300.41 a month". */
  figures: string;
  reason: string | null;
}

const DOING: Record<ProposedAction, (instance: string) => string> = {
  stop: (instance) => `stopping ${instance}`,
  keep: (instance) => `keeping ${instance} running`,
  spot: (instance) => `moving ${instance} to spot`,
};

/** "An assistant used by Carol proposes stopping trainer-3: idle 14 h, $62.00/day". */
export function proposalLine(lead: Omit<ProposalLead, 'id' | 'reason'>): string {
  return `An assistant used by ${lead.proposer} proposes ${DOING[lead.action](lead.instance)}: ${lead.figures}`;
}

/**
 * An alert as an assistant proposes it: led by who proposes what and why, then the alert (the idle
 * alert, the spot recommendation) as it always is, with its own buttons, so that a person decides
 * by the same clicks as on any alert; last, Dismiss, to say no to the proposal without acting.
 */
export function proposedAlert(alert: Message, lead: ProposalLead): Message {
  const line = proposalLine(lead);
  const [header, ...rest] = alert.blocks;
  return {
    ...alert,
    summary: line,
    blocks: [
      ...(header?.type === 'header' ? [header] : []),
      { type: 'text', text: `**${line}**` },
      ...(lead.reason ? [{ type: 'context' as const, text: `Its reason: ${lead.reason}` }] : []),
      { type: 'context', text: 'Nothing is done until someone here clicks one of the buttons below.' },
      ...(header?.type === 'header' ? rest : alert.blocks),
      {
        type: 'actions',
        buttons: [{ action: ACTION_IDS.proposalDismiss, label: 'Dismiss the proposal', value: JSON.stringify({ p: lead.id }) }],
      },
    ],
  };
}

/** A proposal someone dismissed: what it was, who said no and when; no buttons left to click. */
export function dismissedProposal(line: string, by: string, at: Date): Message {
  const text = `Dismissed by ${by} at ${timeOf(at)}: nothing was done.`;
  return {
    summary: `${line} — dismissed`,
    blocks: [
      { type: 'text', text: `**${line}**` },
      { type: 'context', text },
    ],
  };
}

/** "14 h", "40 min", "2 d 2 h": how long an instance has been idle. */
export function idleFor(minutes: number): string {
  if (minutes < 60) return `${Math.round(minutes)} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
