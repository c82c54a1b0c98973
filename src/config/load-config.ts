import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { BurnrateError } from '../domain/errors.js';
import { demoConfig } from '../providers/demo/demo-config.js';
import type { ConfigChannels } from './parse-config.js';
import type { Config } from './schema.js';

export interface LoadedConfig {
  config: Config;
  /** The file it came from, or null for the embedded demo organisation. */
  path: string | null;
}

const DEFAULT_PATH = 'burnrate.yml';

/**
 * Finds and validates the configuration: `--config`, then BURNRATE_CONFIG, then ./burnrate.yml.
 * With none of them the embedded demo organisation is used, so a first run needs no setup.
 * burnrate.yml's schema (zod and its 95 modules) loads only when there is a file to validate, and
 * with `validatedIn` (the database's folder) only when that file's content was not validated there before.
 */
export async function loadConfig(
  path: string | undefined,
  channels: ConfigChannels,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  options: { validatedIn?: string } = {},
): Promise<LoadedConfig> {
  const { validatedIn } = options;
  const parsed = async (file: string) => ({
    config:
      validatedIn === undefined
        ? (await import('./parse-config.js')).parseConfigFile(file, channels)
        : await (await import('./validated-config-cache.js')).loadValidatedConfig(file, channels, validatedIn),
    path: file,
  });
  const explicit = path ?? env.BURNRATE_CONFIG;
  if (!explicit) {
    const fallback = resolve(cwd, DEFAULT_PATH);
    if (!existsSync(fallback)) return { config: demoConfig({ cluster: true }), path: null };
    return parsed(fallback);
  }
  const file = resolve(cwd, explicit);
  if (!existsSync(file)) {
    throw new BurnrateError(
      'burnrate_config_missing',
      `config file not found: ${file}`,
      'Check --config or BURNRATE_CONFIG, or copy burnrate.example.yml to burnrate.yml.',
    );
  }
  return parsed(file);
}
