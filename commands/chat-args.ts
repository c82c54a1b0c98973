import { parsePeriod, PERIOD_SYNTAX, type Period } from '../src/domain/period.js';
import { closest } from '../src/domain/closest.js';
import { BurnrateError } from '../src/domain/errors.js';
import { isExtensionDimension, KUBE_DIMENSIONS, type KubeDimension, type SpendDimension } from '../src/domain/spend.js';
import { normaliseTag } from '../src/domain/ownership.js';
import type { Config } from '../src/config/schema.js';

const DIMENSIONS: readonly (SpendDimension | KubeDimension)[] = ['team', 'service', 'resource', 'day', 'provider', ...KUBE_DIMENSIONS];

/** Words people type in chat, in any order: a team, a period, a dimension (`by service` or `service`). */
export interface ChatArgs {
  team?: string;
  period?: Period;
  by?: SpendDimension | KubeDimension;
  numbers: number[];
  unknown: string[];
  /** What is wrong with each word not understood, naming the argument and the nearest valid value. */
  problems: string[];
}

/** The relative periods people type, for suggestions. */
const PERIOD_WORDS = ['this-month', 'last-month', 'this-week', 'last-week', 'mtd', 'wtd'];

export function readChatArgs(config: Config, words: readonly string[], today: string, visibleTeams?: readonly string[]): ChatArgs {
  const args: ChatArgs = { numbers: [], unknown: [], problems: [] };
  let afterBy = false;
  for (const word of words) {
    const lower = word.toLowerCase();
    const wasBy = afterBy;
    afterBy = lower === 'by';
    if (lower === 'by') continue;
    if ((DIMENSIONS as readonly string[]).includes(lower) && !args.by) args.by = lower as SpendDimension | KubeDimension;
    else if (isExtensionDimension(word) && !args.by) args.by = word;
    else if (!args.team && isTeam(config, word)) args.team = word;
    else if (/^\d+$/.test(word)) args.numbers.push(Number(word));
    else {
      try {
        args.period = parsePeriod(word, today);
      } catch (error) {
        args.unknown.push(word);
        args.problems.push(problemOf(config, word, wasBy, error, visibleTeams));
      }
    }
  }
  return args;
}

/**
 * Why a word is not understood, naming what it was probably meant to be: a split after "by", a
 * period (a reversed range says so), a team (the teams the user can see), with the nearest valid value.
 */
function problemOf(config: Config, word: string, afterBy: boolean, periodError: unknown, visibleTeams?: readonly string[]): string {
  const splits = `${DIMENSIONS.join(', ')} or a tag column such as x_UsageType`;
  if (afterBy) return suggest(`"${word}" is not a way to split spend`, closest(word, DIMENSIONS), `use ${splits}`);
  const looksLikePeriod = /\d/.test(word) || word.includes('..');
  if (looksLikePeriod && periodError instanceof BurnrateError) return `${periodError.message}: ${periodError.hint}`;
  const period = closest(word, PERIOD_WORDS);
  if (period) return suggest(`"${word}" is not a period`, period, `use ${PERIOD_SYNTAX}`);
  const split = closest(word, DIMENSIONS);
  if (split) return suggest(`"${word}" is not a way to split spend`, split, `use ${splits}`);
  const teams = config.teams.filter((t) => !visibleTeams || visibleTeams.includes(t.id));
  const team = closest(
    word,
    teams.flatMap((t) => [t.id, ...t.match]),
  );
  const yours = teams.map((t) => t.id).join(', ') || 'none yet';
  return suggest(
    `"${word}" is not a team you can see, a period or a way to split spend`,
    team,
    `your teams: ${yours}; periods: ${PERIOD_SYNTAX}`,
  );
}

function suggest(problem: string, nearest: string | undefined, otherwise: string): string {
  return nearest ? `${problem}: did you mean ${nearest}?` : `${problem}: ${otherwise}.`;
}

function isTeam(config: Config, word: string): boolean {
  const wanted = normaliseTag(word);
  return config.teams.some((t) => normaliseTag(t.id) === wanted || t.match.some((m) => normaliseTag(m) === wanted));
}
