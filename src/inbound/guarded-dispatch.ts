import type { Deps } from '../deps.js';
import { privateReply } from '../../templates/private-reply.js';
import type { Interaction, Reply } from '../ports/interaction.js';

export type Dispatch = (deps: Deps, interaction: Interaction) => Promise<void>;

type Platform = { name: string; redact?: (text: string) => string };

/**
 * Translates a platform payload, or tells the person it could not be read (a short apology, never
 * a stack trace) and returns null.
 */
export async function translateGuarded<T>(deps: Deps, reply: Reply, translate: () => T, platform: Platform): Promise<T | null> {
  try {
    return translate();
  } catch (error) {
    const redact = platform.redact ?? ((text: string) => text);
    deps.log.warn({ err: redact((error as Error).message) }, `unreadable ${platform.name.toLowerCase()} payload`);
    await reply
      .private(
        privateReply(
          `burnrate could not read that request from ${platform.name}.`,
          'Try again; if it keeps failing, tell your burnrate admin.',
        ),
      )
      .catch(() => {});
    return null;
  }
}

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
  platform: Platform,
): Promise<void> {
  const interaction = await translateGuarded(deps, reply, translate, platform);
  if (!interaction) return;
  try {
    await dispatch(deps, interaction);
  } catch (error) {
    const redact = platform.redact ?? ((text: string) => text);
    deps.log.error({ err: redact((error as Error).message), kind: interaction.kind }, `${platform.name.toLowerCase()} reply failed`);
  }
}
