import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { BurnrateError } from '../domain/errors.js';
import { demoConfig } from '../providers/demo/demo-config.js';
import { formatIssues } from './format-issues.js';
import { checkConfigSize, readConfigYaml } from './read-yaml.js';
import type { ChatChannelDeclaration } from './chat-channels.js';
import { configSchemaWith, type Config } from './schema.js';

export interface LoadedConfig {
  config: Config;
  /** The file it came from, or null for the embedded demo organisation. */
  path: string | null;
}

const DEFAULT_PATH = 'burnrate.yml';

/**
 * The chat platforms whose channel keys burnrate.yml may hold (the chat registry's `CHAT_CHANNELS`).
 * Always passed: a loader that forgot them would refuse every team's `slack:` and `msteams:` key.
 */
type Channels = readonly ChatChannelDeclaration[];

/**
 * Finds and validates the configuration: `--config`, then BURNRATE_CONFIG, then ./burnrate.yml.
 * With none of them the embedded demo organisation is used, so a first run needs no setup.
 */
export function loadConfig(
  path: string | undefined,
  channels: Channels,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): LoadedConfig {
  const explicit = path ?? env.BURNRATE_CONFIG;
  if (!explicit) {
    const fallback = resolve(cwd, DEFAULT_PATH);
    if (!existsSync(fallback)) return { config: demoConfig({ cluster: true }), path: null };
    return { config: parseConfigFile(fallback, channels), path: fallback };
  }
  const file = resolve(cwd, explicit);
  if (!existsSync(file)) {
    throw new BurnrateError(
      'burnrate_config_missing',
      `config file not found: ${file}`,
      'Check --config or BURNRATE_CONFIG, or copy burnrate.example.yml to burnrate.yml.',
    );
  }
  return { config: parseConfigFile(file, channels), path: file };
}

export function parseConfigFile(file: string, channels: Channels): Config {
  const stat = statSync(file);
  if (!stat.isFile())
    throw new BurnrateError(
      'burnrate_config_invalid',
      `${file} is not a file`,
      'Point --config (or BURNRATE_CONFIG) at burnrate.yml itself.',
    );
  checkConfigSize(stat.size, file);
  return parseConfigText(readFileSync(file, 'utf8'), channels, file);
}

export function parseConfigText(text: string, channels: Channels, source = 'burnrate.yml'): Config {
  const raw = readConfigYaml(text, source);
  const result = configSchemaWith(channels).safeParse(raw, { reportInput: true });
  if (!result.success) {
    const lines = formatIssues(result.error.issues, (p) => knownKeysAt(p, channels));
    throw new BurnrateError(
      'burnrate_config_invalid',
      `${source} has ${lines.length === 1 ? 'an error' : `${lines.length} errors`}:\n${lines.map((l) => `  ${l}`).join('\n')}`,
      'Fix the keys above; `burnrate config schema` prints a JSON Schema for editor completion.',
    );
  }
  return result.data;
}

/** JSON Schema of burnrate.yml, for editors (yaml-language-server) and docs. */
export function configJsonSchema(channels: Channels): object {
  // draft-07: the dialect editors' YAML plugins support best.
  return {
    title: 'burnrate.yml',
    ...z.toJSONSchema(configSchemaWith(channels), { io: 'input', unrepresentable: 'any', target: 'draft-7' }),
  };
}

/** The keys the schema allows at a path, to suggest the right spelling of an unknown one. */
function knownKeysAt(path: readonly PropertyKey[], channels: Channels): string[] {
  let schema: unknown = configJsonSchema(channels);
  for (const part of path) {
    const node = schema as { properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
    if (typeof part === 'number') schema = node.items;
    else schema = node.properties?.[String(part)] ?? (node.oneOf ?? node.anyOf)?.find((s) => (s as { properties?: object }).properties);
    if (!schema) return [];
  }
  const node = schema as { properties?: Record<string, unknown>; oneOf?: { properties?: object }[]; anyOf?: { properties?: object }[] };
  const variants = node.properties ? [node] : (node.oneOf ?? node.anyOf ?? []);
  return variants.flatMap((v) => Object.keys(v.properties ?? {}));
}
