import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli } from '../support/run-cli.js';
import { schemaErrors } from '../support/kube-schema.js';
import { helmLint, helmNotes, helmTemplate, helmTemplateError } from './helm.js';

// What operators expect of a chart (`helm create`'s conventions and the common-labels guide),
// checked with a real helm: lint --strict, the values schema, cloud identities on the service
// account, a config change rolling the pods, and the optional PDB, Ingress and ServiceMonitor.

const CHART = new URL('../../deploy/helm/burnrate', import.meta.url).pathname;
const byKind = (docs: Record<string, any>[], kind: string) => docs.filter((d) => d.kind === kind);
const podOf = (docs: Record<string, any>[]) => byKind(docs, 'Deployment')[0]!.spec.template;

const EVERYTHING_ON = {
  replicas: 3,
  database: { urlSecretKey: 'DATABASE_URL' },
  actions: { enabled: true },
  imagePullSecrets: [{ name: 'regcred' }],
  serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/burnrate' } },
  podAnnotations: { 'example.com/team': 'platform' },
  ingress: {
    enabled: true,
    className: 'nginx',
    hosts: [{ host: 'burnrate.example.com', paths: [{ path: '/', pathType: 'Prefix' }] }],
    tls: [{ secretName: 'burnrate-tls', hosts: ['burnrate.example.com'] }],
  },
  podDisruptionBudget: { enabled: true },
  metrics: { serviceMonitor: { enabled: true, labels: { release: 'kube-prometheus-stack' } } },
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['cpu'] }] }],
      },
    },
  },
};

describe('the Helm chart, as operators expect it', () => {
  it('passes helm lint --strict with the defaults and with every option on, and renders what the Kubernetes schemas accept', () => {
    for (const values of [{}, EVERYTHING_ON]) {
      const lint = helmLint(CHART, values);
      expect(lint.stderr + lint.stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
      expect(lint.status).toBe(0);
    }
    const docs = helmTemplate(CHART, EVERYTHING_ON);
    expect(docs.map((d) => d.kind).sort()).toEqual(
      expect.arrayContaining(['Ingress', 'PodDisruptionBudget', 'ServiceMonitor', 'ServiceAccount', 'Deployment']),
    );
    for (const doc of docs.filter((d) => d.kind !== 'ServiceMonitor')) expect(schemaErrors(doc)).toEqual([]);
  });

  it('labels every object with the recommended labels and selects pods by name and instance only', () => {
    const docs = helmTemplate(CHART, EVERYTHING_ON);
    for (const doc of docs)
      expect(doc.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': 'burnrate',
        'app.kubernetes.io/instance': 'burnrate',
        'app.kubernetes.io/version': '0.1.0',
        'app.kubernetes.io/managed-by': 'Helm',
        'helm.sh/chart': 'burnrate-0.1.0',
      });
    const selector = { 'app.kubernetes.io/name': 'burnrate', 'app.kubernetes.io/instance': 'burnrate' };
    expect(byKind(docs, 'Deployment')[0]!.spec.selector.matchLabels).toEqual(selector);
    expect(byKind(docs, 'PodDisruptionBudget')[0]!.spec.selector.matchLabels).toEqual(selector);
    for (const service of byKind(docs, 'Service')) expect(service.spec.selector).toEqual(selector);
    expect(podOf(docs).metadata.labels).toMatchObject(selector);
  });

  it('names every object after fullnameOverride, and each reference finds the object it names', () => {
    const docs = helmTemplate(CHART, { ...EVERYTHING_ON, fullnameOverride: 'spend-bot' });
    for (const doc of docs) expect(doc.metadata.name).toMatch(/^spend-bot/);
    const names = (kind: string) => byKind(docs, kind).map((d) => d.metadata.name);
    for (const binding of byKind(docs, 'ClusterRoleBinding')) {
      expect(names('ClusterRole')).toContain(binding.roleRef.name);
      expect(names('ServiceAccount')).toContain(binding.subjects[0].name);
    }
    const pod = podOf(docs).spec;
    expect(names('ServiceAccount')).toContain(pod.serviceAccountName);
    expect(names('ConfigMap')).toContain(pod.volumes.find((v: { name: string }) => v.name === 'config').configMap.name);
    const backend = byKind(docs, 'Ingress')[0]!.spec.rules[0].http.paths[0].backend.service;
    expect(names('Service')).toContain(backend.name);
  });

  it('gives the service account the annotations of IRSA or GKE Workload Identity, or runs as an existing one', () => {
    const annotated = helmTemplate(CHART, {
      serviceAccount: { annotations: { 'iam.gke.io/gcp-service-account': 'burnrate@my-project.iam.gserviceaccount.com' } },
    });
    expect(byKind(annotated, 'ServiceAccount')[0]!.metadata.annotations).toEqual({
      'iam.gke.io/gcp-service-account': 'burnrate@my-project.iam.gserviceaccount.com',
    });
    const existing = helmTemplate(CHART, { serviceAccount: { create: false, name: 'platform-bots' }, actions: { enabled: true } });
    expect(byKind(existing, 'ServiceAccount')).toEqual([]);
    expect(podOf(existing).spec.serviceAccountName).toBe('platform-bots');
    expect(byKind(existing, 'ClusterRoleBinding').map((b) => b.subjects[0].name)).toEqual(['platform-bots', 'platform-bots']);
    expect(helmTemplateError(CHART, { serviceAccount: { create: false } })).toContain(
      'serviceAccount.name: name the existing service account burnrate runs as',
    );
  });

  it('rolls the pods when burnrate.yml changes, and only then', () => {
    const checksum = (values: Record<string, unknown>) => podOf(helmTemplate(CHART, values)).metadata.annotations['checksum/config'];
    const base = checksum({});
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(checksum({ resources: { requests: { cpu: '1' } } })).toBe(base);
    expect(checksum({ config: { teams: [{ id: 'vision' }], sources: [{ type: 'demo' }] } })).not.toBe(base);
    expect(checksum({ actions: { enabled: true } })).not.toBe(base);
  });

  it('refuses replicas above one without the shared database, misspelt keys and wrong types, before rendering anything', () => {
    expect(helmTemplateError(CHART, { replicas: 2 })).toContain("at '/database/urlSecretKey'");
    expect(helmTemplateError(CHART, { replica: 3 })).toContain("additional properties 'replica' not allowed");
    expect(helmTemplateError(CHART, { replicas: '3' })).toContain("at '/replicas': got string, want integer");
    expect(helmTemplateError(CHART, { metrics: { port: 70000 } })).toContain("at '/metrics/port'");
    expect(helmTemplateError(CHART, { serviceAccount: { anotations: {} } })).toContain("additional properties 'anotations' not allowed");
    expect(helmTemplate(CHART, { replicas: 2, database: { urlSecretKey: 'DATABASE_URL' } }).length).toBeGreaterThan(0);
  });

  it('merges an `actions:` written inside config into one section that `burnrate config validate` accepts, and binds the acting role', async () => {
    const values = { config: { teams: [], sources: [{ type: 'demo' }], actions: { enabled: true } } };
    const docs = helmTemplate(CHART, values);
    const file = byKind(docs, 'ConfigMap')[0]!.data['burnrate.yml'] as string;
    expect(file.match(/^actions:/gm)).toHaveLength(1);
    expect(parse(file).actions).toEqual({ enabled: true });
    const dir = mkdtempSync(join(tmpdir(), 'burnrate-helm-config-'));
    writeFileSync(join(dir, 'burnrate.yml'), file);
    const validate = await cli(['config', 'validate', '--config', 'burnrate.yml'], { cwd: dir });
    expect(validate.err).toBe('');
    expect(validate.code).toBe(0);
    expect(byKind(docs, 'ClusterRoleBinding').map((b) => b.metadata.name)).toEqual(['burnrate-read', 'burnrate-act']);
  });

  it('adds a PodDisruptionBudget, an Ingress to the chat port and a ServiceMonitor only when asked', () => {
    const off = helmTemplate(CHART);
    expect(off.map((d) => d.kind)).not.toEqual(expect.arrayContaining(['PodDisruptionBudget']));
    expect(byKind(off, 'Ingress')).toEqual([]);
    expect(byKind(off, 'ServiceMonitor')).toEqual([]);
    expect(podOf(off).spec.imagePullSecrets).toBeUndefined();
    const on = helmTemplate(CHART, EVERYTHING_ON);
    expect(byKind(on, 'PodDisruptionBudget')[0]!.spec).toMatchObject({ maxUnavailable: 1 });
    const minAvailable = helmTemplate(CHART, { ...EVERYTHING_ON, podDisruptionBudget: { enabled: true, minAvailable: 2 } });
    expect(byKind(minAvailable, 'PodDisruptionBudget')[0]!.spec.minAvailable).toBe(2);
    expect(byKind(minAvailable, 'PodDisruptionBudget')[0]!.spec.maxUnavailable).toBeUndefined();
    const ingress = byKind(on, 'Ingress')[0]!;
    expect(ingress.spec).toMatchObject({
      ingressClassName: 'nginx',
      tls: [{ secretName: 'burnrate-tls', hosts: ['burnrate.example.com'] }],
      rules: [
        {
          host: 'burnrate.example.com',
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'burnrate', port: { name: 'http' } } } }] },
        },
      ],
    });
    expect(byKind(on, 'ServiceMonitor')[0]!.metadata.labels).toMatchObject({ release: 'kube-prometheus-stack' });
    expect(podOf(on).spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(podOf(on).metadata.annotations).toMatchObject({ 'example.com/team': 'platform' });
  });

  it('tells the installer where state, credentials, actions and metrics are (NOTES.txt)', () => {
    const notes = helmNotes(CHART);
    expect(notes).toContain('SQLite on the volume burnrate-data (one replica)');
    expect(notes).toContain('the Secret burnrate-secrets');
    expect(notes).toContain('dry runs');
    expect(notes).toContain('http://burnrate-metrics.platform.svc:9464/metrics');
    const on = helmNotes(CHART, EVERYTHING_ON);
    expect(on).toContain('the Postgres database of DATABASE_URL (3 replica(s))');
    expect(on).toContain('ON: buttons act');
    expect(on).toContain('https://burnrate.example.com');
  });
});
