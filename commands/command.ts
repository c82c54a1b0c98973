import type { Actor } from '../src/ports/interaction.js';
import type { Deps } from '../src/deps.js';
import type { Roles } from '../src/domain/roles.js';
import type { Message } from '../templates/message.js';

/** What a chat command runs with: the product's parts, who asked, and what they may see. */
export interface CommandContext {
  deps: Deps;
  actor: Actor;
  roles: Roles;
  /** Team ids the actor may see (all of them for admins). */
  visibleTeams: string[];
  now: Date;
}

/** One `/burnrate` verb. `run` returns the answer; the dispatcher delivers it. */
export interface CommandSpec {
  /** One or two words: `spend`, `budget set`. */
  verb: string;
  usage: string;
  example: string;
  summary: string;
  /**
   * false: left out of menus that take only so many verbs (Teams' command menu takes 12); it is
   * still typed, and listed by help.
   */
  menu?: false;
  run(ctx: CommandContext, args: string[]): Promise<Message>;
}
