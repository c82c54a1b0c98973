import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { BurnrateError } from '../../domain/errors.js';
import type { PullContext } from '../../ports/pull-context.js';
import type { SpendSource } from '../../ports/spend-source.js';
import { readFocusFiles, type FocusBatch } from './read-focus.js';

export interface FocusSourceOptions {
  /** Source id; the scope a re-import replaces. Defaults to 'focus'. */
  id?: string | undefined;
  /** File paths or globs (*, ?, ** and [...]), relative to the working directory. */
  paths: readonly string[];
  /** Cost lines above this amount are imported with a warning; default DEFAULT_LINE_COST_CEILING. */
  lineCostCeiling?: number | undefined;
  /** Provider columns (x_…) kept as dimensions. */
  dimensions?: readonly string[] | undefined;
}

/**
 * FOCUS cost exports on disk (CSV, CSV.gz, Parquet), imported as one all-or-nothing batch. The
 * files no AWS manifest lists form one export named after the source, read whole on every pull:
 * each pull replaces what the previous one read from them, even as files come and go.
 */
export class FocusSource implements SpendSource {
  readonly type = 'focus';
  readonly id: string;
  private readonly paths: readonly string[];
  private readonly lineCostCeiling: number | undefined;
  private readonly dimensions: readonly string[];

  constructor(options: FocusSourceOptions) {
    this.id = options.id ?? 'focus';
    this.paths = options.paths;
    this.lineCostCeiling = options.lineCostCeiling;
    this.dimensions = options.dimensions ?? [];
  }

  async pull(ctx: PullContext): Promise<FocusBatch[]> {
    const files = await expandFocusPaths(this.paths);
    return [
      await readFocusFiles(files, ctx, this.id, {
        exportId: `source:${this.id}`,
        lineCostCeiling: this.lineCostCeiling,
        dimensions: this.dimensions,
      }),
    ];
  }
}

/**
 * Expands globs to files (sorted, without duplicates); plain paths are kept as they are, so a
 * missing file is reported by the reader. A glob that matches nothing is an error naming it.
 */
export async function expandFocusPaths(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (!isGlob(path)) {
      files.push(path);
      continue;
    }
    const matches = await globFiles(path);
    if (matches.length === 0) {
      throw new BurnrateError(
        'burnrate_focus_missing',
        `no file matches ${path}`,
        'Check the paths of the focus source in burnrate.yml (relative to the working directory).',
      );
    }
    files.push(...matches);
  }
  return [...new Set(files)];
}

function isGlob(path: string): boolean {
  return /[*?[]/.test(path);
}

/** A small glob (Node 20 has no fs.glob): walks from the longest literal prefix directory. */
async function globFiles(pattern: string): Promise<string[]> {
  const normalised = pattern.replace(/\\/g, '/');
  const parts = normalised.split('/');
  const firstGlob = parts.findIndex(isGlob);
  const base = parts.slice(0, firstGlob).join('/') || (normalised.startsWith('/') ? '/' : '.');
  const rest = parts.slice(firstGlob);
  const matcher = globToRegExp(rest.join('/'));
  // Without "**" a match is exactly as many folders deep as the pattern: no need to walk further.
  const maxDepth = rest.includes('**') || rest.some((p) => p.includes('**')) ? Infinity : rest.length;
  const found: string[] = [];
  const walk = async (dir: string, relative: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      const full = join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const info = await stat(full).catch(() => null);
        isDir = info?.isDirectory() ?? false;
        isFile = info?.isFile() ?? false;
      }
      if (isFile && matcher.test(rel))
        found.push(firstGlob === 0 && !normalised.startsWith('/') ? rel : `${base === '/' ? '' : base}/${rel}`);
      if (isDir && depth + 1 < maxDepth) await walk(full, rel, depth + 1);
    }
  };
  await walk(resolve(base), '', 0);
  return found.sort();
}

function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // "**/" matches any number of folders, including none
        i++;
        if (glob[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else out += '.*';
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) out += '\\[';
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}
