import { z } from 'zod';
import { BurnrateError } from '../domain/errors.js';
import { formatIssues } from './format-issues.js';
import { readConfigFile, readConfigYaml } from './read-yaml.js';
import type { ChatChannelDeclaration } from './chat-channels.js';
import { configSchemaWith, type Config } from './schema.js';

/**
 * The chat platforms whose channel keys burnrate.yml may hold (the chat registry's `CHAT_CHANNELS`).
 * Always passed: a loader that forgot them would refuse every team's `slack:` and `msteams:` key.
 */
export type ConfigChannels = readonly ChatChannelDeclaration[];

export function parseConfigFile(file: string, channels: ConfigChannels): Config {
  return parseConfigText(readConfigFile(file), channels, file);
}

export function parseConfigText(text: string, channels: ConfigChannels, source = 'burnrate.yml'): Config {
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
export function configJsonSchema(channels: ConfigChannels): object {
  // draft-07: the dialect editors' YAML plugins support best.
  return {
    title: 'burnrate.yml',
    ...z.toJSONSchema(configSchemaWith(channels), { io: 'input', unrepresentable: 'any', target: 'draft-7' }),
  };
}

/** The keys the schema allows at a path, to suggest the right spelling of an unknown one. */
function knownKeysAt(path: readonly PropertyKey[], channels: ConfigChannels): string[] {
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
