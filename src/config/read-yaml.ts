import { readFileSync, statSync } from 'node:fs';
import type { Document } from 'yaml';
import { BurnrateError } from '../domain/errors.js';
import { checkYamlDocument, MAX_DEPTH } from './check-yaml.js';
import { lineNestedTooDeep } from './yaml-depth.js';
import { yamlLibrary } from './yaml-library.js';

/**
 * A configuration is a few kilobytes; 256 KiB holds a thousand teams. Beyond it the file is data
 * given by mistake, and the parser would spend seconds and hundreds of megabytes on it.
 */
export const MAX_CONFIG_BYTES = 256 * 1024;
/** Problems listed in one message; the rest are counted, so a hostile file cannot flood a terminal. */
const MAX_LINES = 12;

const PLAIN_HINT =
  'Write plain strings, numbers, true/false, lists and mappings: quote text that YAML would read otherwise, and keep anchors and aliases to small shared blocks.';

/** Parses configuration YAML into plain JavaScript values, refusing what could exhaust memory or the stack. */
export function readConfigYaml(text: string, source: string): unknown {
  checkConfigSize(Buffer.byteLength(text, 'utf8'), source);
  const deepAt = lineNestedTooDeep(text);
  if (deepAt !== undefined) throw tooDeep(source, deepAt);
  const doc = parseYaml(text, source);
  if (doc.errors.length > 0) {
    const exhausted = doc.errors.find((error) => error.code === 'RESOURCE_EXHAUSTION');
    if (exhausted) throw tooDeep(source, lineOf(exhausted.message));
    const lines = doc.errors.map((error) => `${source}: ${error.message.split('\n')[0]}`);
    throw new BurnrateError(
      'burnrate_config_invalid',
      `${source} is not valid YAML:\n${lines.join('\n')}`,
      'Fix the YAML syntax at the line shown.',
    );
  }
  const problems = checkYamlDocument(doc);
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_LINES).map((line) => `  ${line}`);
    if (problems.length > MAX_LINES) shown.push(`  ... and ${problems.length - MAX_LINES} more`);
    const what = problems.length === 1 ? 'a value' : `${problems.length} values`;
    throw new BurnrateError('burnrate_config_invalid', `${source} has ${what} burnrate cannot read:\n${shown.join('\n')}`, PLAIN_HINT);
  }
  try {
    return doc.toJS() ?? {};
  } catch (error) {
    // checkYamlDocument bounds what toJS expands; this is the yaml library's own guard saying otherwise.
    throw new BurnrateError('burnrate_config_invalid', `${source} cannot be read: ${(error as Error).message}`, PLAIN_HINT);
  }
}

/** The text of a configuration file, refusing a folder or a file too large to be one before reading it. */
export function readConfigFile(file: string): string {
  const stat = statSync(file);
  if (!stat.isFile())
    throw new BurnrateError(
      'burnrate_config_invalid',
      `${file} is not a file`,
      'Point --config (or BURNRATE_CONFIG) at burnrate.yml itself.',
    );
  checkConfigSize(stat.size, file);
  return readFileSync(file, 'utf8');
}

/** Refuses a file too large to be a configuration, before it is read into memory. */
export function checkConfigSize(bytes: number, source: string): void {
  if (bytes <= MAX_CONFIG_BYTES) return;
  throw new BurnrateError(
    'burnrate_config_invalid',
    `${source} is ${kib(bytes)}; a configuration file is at most ${kib(MAX_CONFIG_BYTES)}`,
    'Point --config (or BURNRATE_CONFIG) at burnrate.yml itself: billing exports are read from the files that sources[].paths name.',
  );
}

function parseYaml(text: string, source: string): Document {
  try {
    return yamlLibrary().parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    // The parser guards its own recursion (RESOURCE_EXHAUSTION); this catches any it missed.
    if (error instanceof RangeError) throw tooDeep(source, undefined);
    throw error;
  }
}

function tooDeep(source: string, line: number | undefined): BurnrateError {
  const where = line === undefined ? '' : ` (line ${line})`;
  return new BurnrateError(
    'burnrate_config_invalid',
    `${source} nests lists or mappings too deeply to read${where}`,
    `A configuration nests at most ${MAX_DEPTH} levels: close the brackets or reduce the indentation there.`,
  );
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function lineOf(message: string): number | undefined {
  const match = /at line (\d+)/.exec(message);
  return match ? Number(match[1]) : undefined;
}
