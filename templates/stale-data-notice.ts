import { describeStale, type StaleSource } from '../src/domain/staleness.js';
import type { Message } from './message.js';

const MAX_ERROR = 400;

/**
 * Told to a team when a source behind its spend could not be refreshed: its budget checks are held
 * rather than judged on numbers that stop short, and the reason (the permission or credential to
 * fix) is right there.
 */
export function staleDataNotice(data: { teamName: string; stale: readonly StaleSource[] }): Message {
  const ages = data.stale.map(describeStale).join(', ');
  const reasons = data.stale.map((s) => `**${s.label}**: ${s.error.length > MAX_ERROR ? `${s.error.slice(0, MAX_ERROR - 1)}…` : s.error}`);
  return {
    summary: `${data.teamName}: budget alerts on hold, ${ages}`,
    blocks: [
      { type: 'header', text: `Budget alerts on hold: ${ages}` },
      {
        type: 'text',
        text: `burnrate could not refresh this data, so ${data.teamName}'s budget checks are held instead of alerting on incomplete numbers.`,
      },
      ...reasons.map((text) => ({ type: 'text' as const, text: `Last refresh failed: ${text}` })),
      { type: 'context', text: 'burnrate tries again at every refresh; checks and alerts resume on their own once the data is current.' },
    ],
  };
}

/** "AWS data 26 h old (refresh failing)": appended to the freshness line of spend and budget answers. */
export function staleLine(stale: readonly StaleSource[]): string {
  return stale.map((s) => `${describeStale(s)} (refresh failing)`).join(' · ');
}
