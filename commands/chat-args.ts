import { parsePeriod, type Period } from '../src/domain/period.js';
import { isExtensionDimension, type SpendDimension } from '../src/domain/spend.js';
import { normaliseTag } from '../src/domain/ownership.js';
import type { Config } from '../src/config/schema.js';

const DIMENSIONS: readonly SpendDimension[] = ['team', 'service', 'resource', 'day', 'provider'];

/** Words people type in chat, in any order: a team, a period, a dimension (`by service` or `service`). */
export interface ChatArgs {
  team?: string;
  period?: Period;
  by?: SpendDimension;
  numbers: number[];
  unknown: string[];
}

export function readChatArgs(config: Config, words: readonly string[], today: string): ChatArgs {
  const args: ChatArgs = { numbers: [], unknown: [] };
  for (const word of words) {
    const lower = word.toLowerCase();
    if (lower === 'by') continue;
    if ((DIMENSIONS as readonly string[]).includes(lower) && !args.by) args.by = lower as SpendDimension;
    else if (isExtensionDimension(word) && !args.by) args.by = word;
    else if (!args.team && isTeam(config, word)) args.team = word;
    else if (/^\d+$/.test(word)) args.numbers.push(Number(word));
    else {
      try {
        args.period = parsePeriod(word, today);
      } catch {
        args.unknown.push(word);
      }
    }
  }
  return args;
}

function isTeam(config: Config, word: string): boolean {
  const wanted = normaliseTag(word);
  return config.teams.some((t) => normaliseTag(t.id) === wanted || t.match.some((m) => normaliseTag(m) === wanted));
}
