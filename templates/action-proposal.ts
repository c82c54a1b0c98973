import type { ProposedAction } from '../src/domain/action-proposal.js';
import { formatMoney } from '../src/domain/money.js';
import type { Message } from './message.js';

export interface ProposalLead {
  action: ProposedAction;
  /** The person the assistant acts for, as the platform names them. */
  proposer: string;
  instance: string;
  idleMinutes: number;
  perDay: number;
  reason: string | null;
}

/**
 * An idle alert as an assistant proposes it: led by who proposes what and why, then the alert as it
 * always is, with its own buttons, so that a person decides by the same clicks as on any alert.
 */
export function proposedAlert(alert: Message, lead: ProposalLead): Message {
  const what = lead.action === 'stop' ? `stopping ${lead.instance}` : `keeping ${lead.instance} running`;
  const line = `An assistant used by ${lead.proposer} proposes ${what}: idle ${durationOf(lead.idleMinutes)}, ${formatMoney(lead.perDay, 'USD')}/day`;
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
    ],
  };
}

/** "14 h", "40 min", "2 d 3 h". */
function durationOf(minutes: number): string {
  if (minutes < 60) return `${Math.round(minutes)} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
