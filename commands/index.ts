import type { Message } from '../templates/message.js';
import { closest } from '../src/domain/closest.js';
import { anomaliesCommand } from './anomalies.js';
import { anomalyExpectedCommand } from './anomaly-answer.js';
import { budgetCommand } from './budget.js';
import { budgetSetCommand } from './budget-set.js';
import { digestCommand } from './digest.js';
import type { CommandSpec } from './command.js';
import { helpCommand, helpText } from './help.js';
import { idleCommand } from './idle.js';
import { recommendCommand } from './recommend.js';
import { reviewCommand } from './review.js';
import { savingsCommand } from './savings.js';
import { snoozeCommand } from './snooze.js';
import { spendCommand } from './spend.js';
import { topCommand } from './top.js';
import { wasteCommand } from './waste.js';
import { whoamiCommand } from './whoami.js';

/** Every `/burnrate` verb. Two-word verbs (`budget set`) are matched before one-word ones. */
export const COMMANDS: readonly CommandSpec[] = [
  helpCommand(() => COMMANDS),
  spendCommand,
  budgetSetCommand,
  budgetCommand,
  topCommand,
  idleCommand,
  recommendCommand,
  wasteCommand,
  anomaliesCommand,
  anomalyExpectedCommand,
  reviewCommand,
  savingsCommand,
  digestCommand,
  snoozeCommand,
  whoamiCommand,
];

export function findCommand(words: readonly string[]): { spec: CommandSpec; args: string[] } | null {
  const [first, second] = words.map((w) => w.toLowerCase());
  const two = COMMANDS.find((c) => c.verb === `${first} ${second}`);
  if (two) return { spec: two, args: words.slice(2) };
  const one = COMMANDS.find((c) => c.verb === first);
  return one ? { spec: one, args: words.slice(1) } : null;
}

/** The verb nearest to a misspelt one (`spnd` → `spend`), if near enough to be a typo. */
export function closestVerb(word: string): string | undefined {
  return closest(word, [...new Set(COMMANDS.map((c) => c.verb.split(' ')[0]!))]);
}

/** The help answer, led by what went wrong when the user typed something unknown. */
export function helpMessage(problem: string | null): Message {
  return helpText(COMMANDS, problem);
}
