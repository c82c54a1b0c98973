import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { BurnrateError } from '../../domain/errors.js';

// AWS Data Exports deliver a month as several data files and, once all are written, a manifest that
// lists them: <export>/metadata/BILLING_PERIOD=YYYY-MM/<export>-Manifest.json beside
// <export>/data/BILLING_PERIOD=YYYY-MM/<export>-00001.csv.gz ... The manifest names the export the
// parts belong to, so a part imported alone replaces only itself and the export imported whole
// replaces all its earlier parts. Copies of an export on disk keep that layout, or flatten it into
// one folder; both are understood.

export interface AwsManifest {
  file: string;
  /** The export and billing period: stable across the daily refreshes of one month. */
  exportId: string;
  /** Absolute local paths of the data files it lists, where they were found. */
  dataFiles: string[];
  /** Listed data files not found on disk. */
  missing: string[];
}

export function isManifestFile(file: string): boolean {
  return /manifest\.json$/i.test(file);
}

/** Reads a manifest given on the command line; a bad one is an error naming it. */
export async function readManifest(file: string): Promise<AwsManifest> {
  const fail = (what: string) =>
    new BurnrateError(
      'burnrate_focus_invalid',
      `${file}: ${what}`,
      'Give the *-Manifest.json that AWS Data Exports wrote beside the data files, or the data files themselves.',
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BurnrateError(
        'burnrate_focus_missing',
        `manifest not found: ${file}`,
        'Check the path (relative paths start at the working directory).',
      );
    }
    throw fail('not a JSON manifest');
  }
  const manifest = parsed as { dataFiles?: unknown; exportArn?: unknown; billingPeriod?: unknown };
  const uris = manifest.dataFiles;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === 'string' && u !== '')) throw fail('no dataFiles list');
  const dataFiles: string[] = [];
  const missing: string[] = [];
  for (const uri of uris as string[]) {
    const found = await firstFile(localCandidates(file, uri));
    if (found) dataFiles.push(resolve(found));
    else missing.push(basename(uri));
  }
  return { file, exportId: exportIdOf(file, manifest, uris as string[]), dataFiles, missing };
}

/** The manifest that lists a data file, looked for beside it and in the export's metadata folder. */
export async function findManifestOf(dataFile: string, cache: Map<string, Promise<AwsManifest[]>>): Promise<AwsManifest | null> {
  const path = resolve(dataFile);
  for (const dir of manifestFolders(dirname(path))) {
    let manifests = cache.get(dir);
    if (!manifests) {
      manifests = manifestsIn(dir);
      cache.set(dir, manifests);
    }
    const found = (await manifests).find((m) => m.dataFiles.includes(path));
    if (found) return found;
  }
  return null;
}

/** Readable manifests in a folder; anything else there is not ours to judge. */
async function manifestsIn(dir: string): Promise<AwsManifest[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const manifests: AwsManifest[] = [];
  for (const name of names.filter(isManifestFile).sort()) {
    const manifest = await readManifest(join(dir, name)).catch(() => null);
    if (manifest) manifests.push(manifest);
  }
  return manifests;
}

/** The data file's own folder, and the metadata folder of its billing period (the data folder may hold an execution id folder). */
function manifestFolders(dir: string): string[] {
  const folders = [dir];
  for (const candidate of [dir, dirname(dir)]) {
    const parts = candidate.split(sep);
    const data = parts.lastIndexOf('data');
    if (data >= 0) folders.push([...parts.slice(0, data), 'metadata', ...parts.slice(data + 1)].join(sep));
  }
  return [...new Set(folders)];
}

/** Where a listed S3 object may be on disk: beside the manifest, or in the copied export's data folder. */
function localCandidates(manifestFile: string, uri: string): string[] {
  const dir = dirname(manifestFile);
  const candidates = [join(dir, basename(uri))];
  const dirParts = resolve(dir).split(sep);
  const metadata = dirParts.lastIndexOf('metadata');
  const uriParts = uri.replace(/^[a-z0-9]+:\/\/[^/]*\//i, '').split('/');
  const data = uriParts.lastIndexOf('data');
  if (metadata >= 0 && data >= 0) candidates.push(join(dirParts.slice(0, metadata).join(sep) || sep, ...uriParts.slice(data)));
  return candidates;
}

async function firstFile(paths: readonly string[]): Promise<string | null> {
  for (const path of paths) if ((await stat(path).catch(() => null))?.isFile()) return path;
  return null;
}

function exportIdOf(file: string, manifest: { exportArn?: unknown; billingPeriod?: unknown }, uris: readonly string[]): string {
  const name =
    typeof manifest.exportArn === 'string' && manifest.exportArn !== ''
      ? manifest.exportArn
      : basename(file).replace(/-?manifest\.json$/i, '');
  const period =
    /BILLING_PERIOD=(\d{4}-\d{2})/.exec(`${file} ${uris[0] ?? ''}`)?.[1] ??
    (typeof manifest.billingPeriod === 'object' && manifest.billingPeriod !== null
      ? String((manifest.billingPeriod as { start?: unknown }).start ?? '').slice(0, 7)
      : '');
  return `aws-export:${name}:${period}`;
}
