import type { Deps } from '../../src/deps.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { click } from './recording-reply.js';

/** A click on a button whose value is `value` (as JSON), through the dispatcher; returns what was answered. */
export async function dispatchClick(deps: Deps, userId: string, action: string, value: object) {
  const interaction = click(userId, action, JSON.stringify(value));
  await dispatch(deps, interaction);
  return interaction.reply;
}
