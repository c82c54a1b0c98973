import { CHAT_CHANNELS } from '../chat/platforms.js';
import { loadConfig } from '../config/load-config.js';
import { configJsonSchema } from '../config/parse-config.js';
import { configWarnings } from '../config/config-warnings.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import type { Verb } from './io.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.config.usage;

export const configVerb: Verb = async (args, io) => {
  const { values, positionals } = parseVerbArgs(args, { config: COMMON_OPTIONS.config }, USAGE, true);
  const [action, ...rest] = positionals;
  if (rest.length > 0) throw usageError(`unexpected argument "${rest[0]}"`, USAGE);
  if (action === 'schema') {
    io.out.write(`${JSON.stringify(configJsonSchema(CHAT_CHANNELS), null, 2)}\n`);
    return 0;
  }
  if (action === 'validate') {
    const { config, path } = await loadConfig(values.config, CHAT_CHANNELS, io.env, io.cwd);
    const where = path ?? 'the embedded demo organisation (no burnrate.yml found)';
    io.out.write(`${where}: valid — ${config.teams.length} teams, ${config.sources.length} sources\n`);
    for (const warning of configWarnings(config)) io.out.write(`warning: ${warning}\n`);
    return 0;
  }
  throw usageError(action ? `unknown config action "${action}"` : 'missing config action', USAGE);
};
