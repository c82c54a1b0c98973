import type { Deps } from '../deps.js';
import { errorMessage } from '../../templates/error-message.js';
import type { Interaction, Reply } from './interaction.js';

export type Dispatch = (deps: Deps, interaction: Interaction) => Promise<void>;

/**
 * Translates a platform payload and dispatches it. The dispatcher turns its own errors into an
 * answer; this guard covers what happens before it (a payload we cannot read) and an answer that
 * itself fails, so a person sees a short apology and never a stack trace.
 */
export async function dispatchGuarded(
  deps: Deps,
  dispatch: Dispatch,
  reply: Reply,
  translate: () => Interaction,
  platform: { name: string; redact?: (text: string) => string },
): Promise<void> {
  const redact = platform.redact ?? ((text: string) => text);
  let interaction: Interaction;
  try {
    interaction = translate();
  } catch (error) {
    deps.log.warn({ err: redact((error as Error).message) }, `unreadable ${platform.name.toLowerCase()} payload`);
    await reply.private(errorMessage(`burnrate could not read that request from ${platform.name}.`, 'Try again; if it keeps failing, tell your burnrate admin.')).catch(() => {});
    return;
  }
  try {
    await dispatch(deps, interaction);
  } catch (error) {
    deps.log.error({ err: redact((error as Error).message), kind: interaction.kind }, `${platform.name.toLowerCase()} reply failed`);
  }
}
