/**
 * Writes docs/permissions.md from the permissions burnrate's sources and actions declare.
 *
 *   npm run build && node dist/scripts/generate-permissions-doc.js [out.md]
 *
 * test/permissions/permissions-doc.test.ts fails when the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { declaredPermissions } from '../src/permissions/declared-permissions.js';
import { renderPermissionsDoc } from '../src/permissions/permissions-doc.js';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2] ?? 'docs/permissions.md';
  writeFileSync(out, renderPermissionsDoc(declaredPermissions()));
  process.stdout.write(`wrote ${out}\n`);
}
