import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import type { ExportPart } from '../../domain/spend.js';
import { BurnrateError } from '../../domain/errors.js';
import { findManifestOf, isManifestFile, readManifest, type AwsManifest } from './aws-manifest.js';
import { hashFiles } from './hash-files.js';

// Which export each file of an import belongs to, and its content hash: what a later import of the
// same part replaces. An export is what an AWS manifest lists; files without one are an export of
// their own, made of the files imported together.

export interface ExpandedInputs {
  /** Data files to read, in the order given; a manifest stands for the files it lists. */
  files: string[];
  /** The manifest given for a file (by absolute path). */
  manifestOf: Map<string, AwsManifest>;
}

export interface ExportFiles {
  files: string[];
  /** One per file, in the same order. */
  parts: ExportPart[];
  /** Exports all of whose files are imported: their earlier parts are replaced, listed or not. */
  wholeExports: string[];
}

/** Replaces manifests by the data files they list; a listed file that is missing is an error. */
export async function expandManifests(inputs: readonly string[]): Promise<ExpandedInputs> {
  const files: string[] = [];
  const seen = new Set<string>();
  const manifestOf = new Map<string, AwsManifest>();
  const add = (file: string, manifest?: AwsManifest) => {
    const key = resolve(file);
    if (seen.has(key)) return;
    seen.add(key);
    files.push(file);
    if (manifest) manifestOf.set(key, manifest);
  };
  for (const input of inputs) {
    if (!isManifestFile(input)) {
      add(input);
      continue;
    }
    const manifest = await readManifest(input);
    if (manifest.missing.length > 0) {
      throw new BurnrateError(
        'burnrate_focus_missing',
        `${input}: ${manifest.missing.length} of the data files it lists are missing: ${manifest.missing.slice(0, 5).join(', ')}${manifest.missing.length > 5 ? ', ...' : ''}`,
        'Copy every file of the export (beside the manifest, or in its data/ folder) and import again; nothing was imported.',
      );
    }
    for (const file of manifest.dataFiles) add(file, manifest);
  }
  return { files, manifestOf };
}

/**
 * Names each file's export and hashes its content. `fallbackExportId` is the export of files no
 * manifest lists (a configured source passes its own, stable one); by default those files are an
 * export identified by their names: the set given on one command line.
 */
export async function identifyParts(expanded: ExpandedInputs, fallbackExportId?: string): Promise<ExportFiles> {
  const cache = new Map<string, Promise<AwsManifest[]>>();
  const manifests: (AwsManifest | null)[] = [];
  for (const file of expanded.files) manifests.push(expanded.manifestOf.get(resolve(file)) ?? (await findManifestOf(file, cache)));

  const loose = expanded.files.filter((_, i) => manifests[i] === null);
  const fallback =
    fallbackExportId ??
    `files:${sha256(
      loose
        .map((f) => basename(f))
        .sort()
        .join('\n'),
    ).slice(0, 16)}`;
  const imported = new Set(expanded.files.map((f) => resolve(f)));
  const wholeExports = new Set<string>(loose.length > 0 ? [fallback] : []);
  for (const manifest of manifests)
    if (manifest && manifest.missing.length === 0 && manifest.dataFiles.every((f) => imported.has(f))) wholeExports.add(manifest.exportId);

  const parts: ExportPart[] = [];
  const byHash = new Map<string, string>();
  const hashes = await hashFiles(expanded.files);
  for (const [i, file] of expanded.files.entries()) {
    const contentHash = hashes[i]!;
    const twin = byHash.get(contentHash);
    if (twin)
      throw new BurnrateError(
        'burnrate_focus_invalid',
        `${file} has the same content as ${twin}`,
        'Import each export file once; nothing was imported.',
      );
    byHash.set(contentHash, file);
    parts.push({ exportId: manifests[i]?.exportId ?? fallback, name: basename(file), contentHash });
  }
  return { files: expanded.files, parts, wholeExports: [...wholeExports].sort() };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
