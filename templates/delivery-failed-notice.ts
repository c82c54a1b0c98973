import type { Message } from './message.js';

const MAX_ERROR = 300;

/**
 * Told to burnrate's admins, in a direct message, when an alert could not be delivered for good
 * (the channel is gone, the bot is not in it): nobody in that channel can see the problem, so the
 * people who can fix it hear of it, with the fix and the command that sends the alert again.
 */
export function deliveryFailedNotice(data: { id: number; target: string; summary: string; error: string }): Message {
  const error = data.error.length > MAX_ERROR ? `${data.error.slice(0, MAX_ERROR - 1)}…` : data.error;
  return {
    summary: `burnrate could not deliver an alert to ${data.target}`,
    blocks: [
      { type: 'header', text: 'An alert could not be delivered' },
      {
        type: 'facts',
        facts: [
          { label: 'To', value: data.target },
          { label: 'Alert', value: data.summary },
          { label: 'Error', value: error },
        ],
      },
      { type: 'text', text: 'Invite burnrate to the channel, or correct the channel id in burnrate.yml; then send the alert again with:' },
      { type: 'text', text: `**burnrate outbox retry --id ${data.id}**` },
    ],
  };
}
