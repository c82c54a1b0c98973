/**
 * Builds the Teams app package to upload (Teams admin center, or Apps → Manage your apps →
 * Upload an app): teams/manifest.json with the bot's app id and burnrate's version filled in, and
 * its two icons, zipped at the root as Teams requires.
 *
 *   MICROSOFT_APP_ID=<the Azure Bot's Microsoft App ID> npm run package:teams [-- --out FILE]
 *
 * Writes dist/teams/burnrate-teams.zip unless --out says otherwise.
 */
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ZipFile } from 'yazl';

const GUID = /^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;

/** The manifest for this bot: its app id as the Teams app id and the bot id, burnrate's version. */
export function teamsManifest(teamsDir: string, appId: string, version: string): Record<string, any> {
  if (!GUID.test(appId)) {
    throw new Error(
      `MICROSOFT_APP_ID must be the bot's Microsoft App ID, a GUID such as 8c2f5d7e-1a2b-4c3d-9e8f-0123456789ab; got "${appId}"`,
    );
  }
  const manifest = JSON.parse(readFileSync(join(teamsDir, 'manifest.json'), 'utf8')) as Record<string, any>;
  manifest.id = appId;
  manifest.version = version;
  for (const bot of manifest.bots ?? []) bot.botId = appId;
  return manifest;
}

/** Zips the manifest and the icons it names into `out`. */
export async function buildTeamsPackage(options: { teamsDir: string; appId: string; version: string; out: string }): Promise<string[]> {
  const manifest = teamsManifest(options.teamsDir, options.appId, options.version);
  const icons = [manifest.icons.color, manifest.icons.outline] as string[];
  mkdirSync(dirname(options.out), { recursive: true });
  const zip = new ZipFile();
  // A fixed time keeps the archive the same for the same inputs.
  const mtime = new Date('2026-01-01T00:00:00Z');
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', { mtime });
  for (const icon of icons) zip.addBuffer(readFileSync(join(options.teamsDir, icon)), icon, { mtime });
  zip.end();
  await new Promise<void>((done, fail) => {
    const file = createWriteStream(options.out);
    file.on('close', done).on('error', fail);
    zip.outputStream.on('error', fail).pipe(file);
  });
  return ['manifest.json', ...icons];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = resolve(values.out ?? join(root, 'dist', 'teams', 'burnrate-teams.zip'));
  const appId = process.env.MICROSOFT_APP_ID?.trim() ?? '';
  if (!appId) {
    process.stderr.write(
      'MICROSOFT_APP_ID is not set: set it to the Microsoft App ID of your Azure Bot (Azure Bot → Configuration), then run again.\n',
    );
    process.exit(2);
  }
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  buildTeamsPackage({ teamsDir: join(root, 'teams'), appId, version, out }).then(
    (files) =>
      process.stdout.write(
        `${out}: ${files.join(', ')}\nUpload it in Teams: Apps → Manage your apps → Upload an app (or the Teams admin center for the whole organisation).\n`,
      ),
    (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    },
  );
}
