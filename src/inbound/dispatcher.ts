import { groupsOf } from '../ports/people-directory.js';
import { randomUUID } from 'node:crypto';
import { findAction } from '../actions/index.js';
import { runActionPipeline } from './action-pipeline.js';
import { withAnswersIn, zoneOfInteraction } from './interaction-zone.js';
import { closestVerb, findCommand, helpMessage } from '../../commands/index.js';
import type { Deps } from '../deps.js';
import { rolesOf, visibleTeams } from '../domain/roles.js';
import { isBurnrateError } from '../domain/errors.js';
import { privateReply, internalErrorMessage } from '../../templates/private-reply.js';
import type { ActionInteraction, CommandInteraction, Interaction } from '../ports/interaction.js';

/**
 * The one entry for every inbound interaction, whatever the platform: commands go to commands/,
 * button clicks through the action pipeline to actions/. Errors become a private message that says what to do next; nothing
 * internal (stack traces, SQL) ever reaches a chat user.
 */
export async function dispatch(deps: Deps, received: Interaction): Promise<void> {
  const interaction = withAnswersIn(received, zoneOfInteraction(deps, received));
  try {
    if (interaction.kind === 'command') await runCommand(deps, interaction);
    else await runAction(deps, interaction);
  } catch (error) {
    if (isBurnrateError(error)) {
      await interaction.reply.private(privateReply(error.message, error.hint));
      return;
    }
    const reference = randomUUID().slice(0, 8);
    deps.log.error(
      { err: (error as Error).message, stack: (error as Error).stack, reference, kind: interaction.kind },
      'interaction failed',
    );
    await interaction.reply.private(internalErrorMessage(reference));
  }
}

async function runCommand(deps: Deps, interaction: CommandInteraction): Promise<void> {
  const words = interaction.text.trim().split(/\s+/).filter(Boolean);
  const found = findCommand(words);
  if (!found) {
    const suggestion = words[0] ? closestVerb(words[0]) : undefined;
    const unknown = words[0] ? `Unknown command "${words[0]}".${suggestion ? ` Did you mean "${suggestion}"?` : ''}` : null;
    await interaction.reply.private(helpMessage(unknown));
    return;
  }
  const roles = rolesOf(deps.config, interaction.actor.userId, groupsOf(deps));
  const message = await found.spec.run(
    { deps, actor: interaction.actor, roles, visibleTeams: visibleTeams(deps.config, roles), now: deps.clock() },
    found.args,
  );
  await interaction.reply.private(message);
}

async function runAction(deps: Deps, interaction: ActionInteraction): Promise<void> {
  const action = findAction(interaction.action);
  if (!action) {
    await interaction.reply.private(
      privateReply(
        `This button ("${interaction.action}") is not one burnrate knows.`,
        'The message may come from an older version; run the command again for a fresh one.',
      ),
    );
    return;
  }
  await runActionPipeline(deps, action, interaction);
}
