import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema } from '../../src/config/schema.js';
import { declaredKubeRules } from '../../src/permissions/declared-kube-rules.js';
import { helmClusterRoleTemplate } from '../../src/permissions/kube-roles.js';
import { schemaErrors } from '../support/kube-schema.js';
import { helmTemplate as renderChart } from './helm.js';

const CHART = new URL('../../deploy/helm/burnrate', import.meta.url).pathname;
const byKind = (docs: Record<string, any>[], kind: string) => docs.filter((d) => d.kind === kind);

describe('the Helm chart', () => {
  it('renders manifests that the Kubernetes schemas accept, with the defaults and with everything on', () => {
    for (const overrides of [
      {},
      {
        actions: { enabled: true },
        persistence: { storageClassName: 'gp3' },
        nodeSelector: { pool: 'cpu' },
        tolerations: [{ key: 'x', operator: 'Exists' }],
      },
    ]) {
      const docs = renderChart(CHART, overrides);
      expect(docs.map((d) => d.kind).sort()).toEqual(
        expect.arrayContaining([
          'ClusterRole',
          'ClusterRoleBinding',
          'ConfigMap',
          'Deployment',
          'PersistentVolumeClaim',
          'Service',
          'ServiceAccount',
        ]),
      );
      for (const doc of docs) expect(schemaErrors(doc)).toEqual([]);
      for (const doc of docs) expect((doc.metadata as { name: string }).name).toMatch(/^burnrate/);
    }
  });

  it('catches a misspelt field, as the API server would', () => {
    expect(schemaErrors({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { replica: 1 } })).toEqual([
      'Deployment.spec.replica: no such field in V1DeploymentSpec',
    ]);
    expect(schemaErrors({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' }, spec: { ports: { port: 1 } } })).toEqual([
      'Service.spec.ports: expected a list',
    ]);
  });

  it('runs burnrate unprivileged on a read-only root file system, probed on /healthz and /readyz, secrets from a Secret', () => {
    const [deployment] = byKind(renderChart(CHART), 'Deployment');
    const pod = deployment!.spec.template.spec;
    const [container] = pod.containers;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.envFrom).toEqual([{ secretRef: { name: 'burnrate-secrets' } }]);
    expect(container.resources).toEqual({ requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '1Gi' } });
    // The database and /tmp are the only writable places.
    expect(
      container.volumeMounts.filter((m: { readOnly?: boolean }) => !m.readOnly).map((m: { mountPath: string }) => m.mountPath),
    ).toEqual(['/var/lib/burnrate', '/tmp']);
    expect(pod.serviceAccountName).toBe('burnrate');
  });

  it('runs several replicas on a shared Postgres: its URL from the Secret, no volume, rolling updates', () => {
    const single = byKind(renderChart(CHART), 'Deployment')[0]!;
    expect(single.spec).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } });
    const docs = renderChart(CHART, { replicas: 3, database: { urlSecretKey: 'DATABASE_URL' } });
    for (const doc of docs) expect(schemaErrors(doc)).toEqual([]);
    expect(byKind(docs, 'PersistentVolumeClaim')).toEqual([]);
    const deployment = byKind(docs, 'Deployment')[0]!;
    expect(deployment.spec).toMatchObject({ replicas: 3, strategy: { type: 'RollingUpdate' } });
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    expect(container.env).toContainEqual({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'burnrate-secrets', key: 'DATABASE_URL' } },
    });
    expect(container.env.map((e: { name: string }) => e.name)).not.toContain('BURNRATE_DB');
    expect(pod.volumes.map((v: { name: string }) => v.name)).toEqual(['config', 'tmp']);
    expect(container.volumeMounts.map((m: { mountPath: string }) => m.mountPath)).toEqual(['/etc/burnrate', '/tmp']);
  });

  it('serves /metrics on a port of its own, behind a Service of its own, scraped by a ServiceMonitor when enabled', () => {
    const off = renderChart(CHART);
    const [container] = byKind(off, 'Deployment')[0]!.spec.template.spec.containers;
    expect(container.env).toEqual(
      expect.arrayContaining([
        { name: 'METRICS_HOST', value: '0.0.0.0' },
        { name: 'METRICS_PORT', value: '9464' },
      ]),
    );
    expect(container.ports).toEqual([
      { name: 'http', containerPort: 3000 },
      { name: 'metrics', containerPort: 9464 },
    ]);
    // The Service that Slack's events reach has no metrics port; the metrics Service has nothing else.
    const services = byKind(off, 'Service');
    expect(services.map((s) => [s.metadata.name, s.spec.ports.map((p: { name: string }) => p.name)]).sort()).toEqual([
      ['burnrate', ['http']],
      ['burnrate-metrics', ['metrics']],
    ]);
    expect(byKind(off, 'ServiceMonitor')).toEqual([]);

    const on = renderChart(CHART, { metrics: { tokenSecretKey: 'METRICS_TOKEN', serviceMonitor: { enabled: true } } });
    for (const doc of on.filter((d) => d.kind !== 'ServiceMonitor')) expect(schemaErrors(doc)).toEqual([]);
    const [monitor] = byKind(on, 'ServiceMonitor');
    expect(monitor).toMatchObject({
      apiVersion: 'monitoring.coreos.com/v1',
      spec: {
        endpoints: [
          { port: 'metrics', path: '/metrics', interval: '60s', bearerTokenSecret: { name: 'burnrate-secrets', key: 'METRICS_TOKEN' } },
        ],
      },
    });
    // It selects the metrics Service, not the one Slack's events reach.
    const selected = (name: string) => {
      const labels = byKind(on, 'Service').find((s) => s.metadata.name === name)!.metadata.labels as Record<string, string>;
      return Object.entries(monitor!.spec.selector.matchLabels as Record<string, string>).every(([k, v]) => labels[k] === v);
    };
    expect([selected('burnrate-metrics'), selected('burnrate')]).toEqual([true, false]);
    expect(byKind(on, 'Deployment')[0]!.spec.template.spec.containers[0].env).toContainEqual({
      name: 'METRICS_TOKEN',
      valueFrom: { secretKeyRef: { name: 'burnrate-secrets', key: 'METRICS_TOKEN' } },
    });
  });

  it('binds the read role always and the acting role only with actions enabled', () => {
    const off = renderChart(CHART);
    expect(byKind(off, 'ClusterRole').map((r) => r.metadata.name)).toEqual(['burnrate-read']);
    expect(byKind(off, 'ClusterRoleBinding').map((r) => r.metadata.name)).toEqual(['burnrate-read']);
    const on = renderChart(CHART, { actions: { enabled: true } });
    expect(byKind(on, 'ClusterRole').map((r) => r.metadata.name)).toEqual(['burnrate-read', 'burnrate-act']);
    expect(byKind(on, 'ClusterRoleBinding')[1]).toMatchObject({
      roleRef: { name: 'burnrate-act' },
      subjects: [{ kind: 'ServiceAccount', name: 'burnrate', namespace: 'platform' }],
    });
    expect(byKind(on, 'ClusterRole')[1]!.rules.some((r: { verbs: string[] }) => r.verbs.includes('patch'))).toBe(true);
    expect(byKind(off, 'ClusterRole')[0]!.rules.every((r: { verbs: string[] }) => !r.verbs.includes('patch'))).toBe(true);
  });

  it('holds the ClusterRoles the code declares (run scripts/generate-permissions-doc.ts after changing one)', () => {
    const committed = readFileSync(`${CHART}/templates/clusterrole.yaml`, 'utf8');
    expect(committed).toBe(helmClusterRoleTemplate(declaredKubeRules()));
  });

  it('mounts a burnrate.yml that burnrate accepts, with the actions switch of the values', () => {
    const [configMap] = byKind(renderChart(CHART, { actions: { enabled: true } }), 'ConfigMap');
    const config = parse(configMap!.data['burnrate.yml']);
    expect(config.actions).toEqual({ enabled: true });
    expect(configSchema.safeParse(config).success).toBe(true);
  });
});
