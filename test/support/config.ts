import { CHAT_CHANNELS } from '../../src/chat/platforms.js';
import * as loader from '../../src/config/load-config.js';
import * as parser from '../../src/config/parse-config.js';

// The loader as runtime and the CLI call it: with the chat registry's channel keys (slack, msteams).

export const parseConfigText = (text: string, source?: string) => parser.parseConfigText(text, CHAT_CHANNELS, source);

export const loadConfig = (path: string | undefined, env: NodeJS.ProcessEnv, cwd: string) =>
  loader.loadConfig(path, CHAT_CHANNELS, env, cwd);

export const configJsonSchema = () => parser.configJsonSchema(CHAT_CHANNELS);
