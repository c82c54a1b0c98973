/**
 * Writes docs/permissions.md, and the Helm chart's ClusterRoles, from the permissions burnrate's
 * sources and actions declare.
 *
 *   npm run build && node dist/scripts/generate-permissions-doc.js [out.md]
 *
 * test/permissions/permissions-doc.test.ts fails when the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { declaredKubeRules } from '../src/permissions/declared-kube-rules.js';
import { declaredPermissions } from '../src/permissions/declared-permissions.js';
import { renderPermissionsDoc } from '../src/permissions/permissions-doc.js';
import { helmClusterRoleTemplate } from '../src/permissions/kube-roles.js';

/** The Helm chart's ClusterRoles come from the same declarations. */
export const HELM_CLUSTER_ROLE = 'deploy/helm/burnrate/templates/clusterrole.yaml';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2] ?? 'docs/permissions.md';
  writeFileSync(out, renderPermissionsDoc(declaredPermissions(), declaredKubeRules()));
  writeFileSync(HELM_CLUSTER_ROLE, helmClusterRoleTemplate(declaredKubeRules()));
  process.stdout.write(`wrote ${out} and ${HELM_CLUSTER_ROLE}\n`);
}
