import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerTimeSeriesList, type FakeOpsAgentGpu } from './fake-cloud-monitoring.js';
import { exchangeGoogleToken, FAKE_GOOGLE_TOKEN, sendError, sendJson } from './fake-google-cloud.js';
import { readBody } from './http-body.js';

export type ComputeApi =
  | 'sts.token'
  | 'instances.aggregatedList'
  | 'instances.get'
  | 'instances.stop'
  | 'zoneOperations.get'
  | 'monitoring.timeSeries.list'
  | 'instanceGroupManagers.get'
  | 'instanceGroupManagers.setInstanceTemplate'
  | 'instanceTemplates.get'
  | 'instanceTemplates.insert'
  | 'globalOperations.get';

/** One VM as the fake holds it; written to the REST API's JSON (int64 as strings, links as URLs). */
export interface FakeGceVm {
  project: string;
  zone: string;
  name: string;
  id: string;
  machineType: string;
  status: 'PROVISIONING' | 'STAGING' | 'RUNNING' | 'STOPPING' | 'TERMINATED' | 'SUSPENDED';
  labels?: Record<string, string>;
  /** Attached GPUs (an N1 with T4s); A2/A3/G2 carry theirs in the machine type. */
  accelerators?: { type: string; count: number };
  provisioningModel?: 'STANDARD' | 'SPOT';
  networkIP?: string;
  localSsds?: number;
  /** The stop's operation ends DONE with this error (as Compute Engine reports a stop it could not do), the VM left running. */
  stopError?: { code: string; message: string };
  /** The managed instance group that created it (its created-by metadata). */
  group?: string;
}

export interface ComputeCall {
  api: ComputeApi;
  method: string;
  path: string;
  query: URLSearchParams;
  token: string | null;
}

interface FakeOperation {
  project: string;
  /** null: a global operation (an instance template's). */
  zone: string | null;
  name: string;
  type: 'stop' | 'insert' | 'setInstanceTemplate';
  targetLink: string;
  status: 'PENDING' | 'RUNNING' | 'DONE';
  /** Applies the change when the operation is read DONE; an error leaves it undone. */
  finish: () => void;
  error?: { code: string; message: string };
}

/** A zonal managed instance group and the global instance template it makes its VMs from. */
export interface FakeGceGroup {
  project: string;
  zone: string;
  name: string;
  template: string;
}

export interface FakeGceTemplate {
  project: string;
  name: string;
  /** The template's properties as the REST API writes them (machineType, scheduling, disks, ...). */
  properties: Record<string, any>;
  description?: string;
}

const BASE = 'https://compute.googleapis.com/compute/v1';

/**
 * Compute Engine's REST API (v1) on 127.0.0.1, as @google-cloud/compute speaks it:
 * instances.aggregatedList (keyed by zone, pages of at most maxResults ≤ 500 with nextPageToken),
 * instances.get and instances.stop by name or numeric id, stop answering a RUNNING zone Operation
 * that zoneOperations.get reports DONE on its next read (the VM then TERMINATED, as Compute Engine
 * calls a stopped VM). Like the real service it refuses a stop of a VM with local SSDs that does not
 * say discardLocalSsd, requests without the fake's bearer token, and answers errors as Google's
 * JSON error body. Workload identity's token exchange (POST /v1/token) is served too.
 */
export class FakeComputeEngine {
  readonly calls: ComputeCall[] = [];
  readonly unexpected: string[] = [];
  private readonly operations = new Map<string, FakeOperation>();
  private readonly denied = new Set<ComputeApi>();

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly vms: FakeGceVm[],
    private readonly gpus: readonly FakeOpsAgentGpu[],
    readonly groups: FakeGceGroup[],
    readonly templates: FakeGceTemplate[],
  ) {}

  /** The VMs, and the GPU series the Ops Agent on them publishes to Cloud Monitoring (served here too: one endpoint for every Google API). */
  static async start(
    vms: FakeGceVm[],
    gpus: readonly FakeOpsAgentGpu[] = [],
    groups: { groups?: FakeGceGroup[]; templates?: FakeGceTemplate[] } = {},
  ): Promise<FakeComputeEngine> {
    let fake: FakeComputeEngine | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeComputeEngine(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      vms.map((vm) => ({ ...vm })),
      gpus,
      (groups.groups ?? []).map((g) => ({ ...g })),
      [...(groups.templates ?? [])],
    );
    return fake;
  }

  callsOf(api: ComputeApi): ComputeCall[] {
    return this.calls.filter((c) => c.api === api);
  }

  statusOf(name: string): string | undefined {
    return this.vms.find((vm) => vm.name === name)?.status;
  }

  /** Every later call of `api` is refused with 403, as for a service account without the permission. */
  deny(api: ComputeApi): void {
    this.denied.add(api);
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`FakeComputeEngine got unexpected calls:\n${this.unexpected.join('\n')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const url = new URL(req.url ?? '/', this.endpoint);
    const route = routeOf(req.method ?? '', url.pathname);
    let body: any;
    try {
      body = text && route?.api !== 'sts.token' ? JSON.parse(text) : undefined;
    } catch {
      return sendError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.', 'parseError');
    }
    const auth = String(req.headers.authorization ?? '');
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : null;
    if (!route) {
      this.unexpected.push(`${req.method} ${url.pathname}`);
      return sendError(res, 404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`, 'notFound');
    }
    this.calls.push({ api: route.api, method: req.method ?? '', path: url.pathname, query: url.searchParams, token });
    if (route.api === 'sts.token') return exchangeGoogleToken(text, res, this.unexpected);
    if (token !== FAKE_GOOGLE_TOKEN)
      return sendError(
        res,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        'authError',
      );
    const [project, zone, target] = route.params as [string, string | undefined, string | undefined];
    if (this.denied.has(route.api))
      return sendError(
        res,
        403,
        'PERMISSION_DENIED',
        `Required '${permissionOf(route.api)}' permission for 'projects/${project}'`,
        'forbidden',
      );
    switch (route.api) {
      case 'monitoring.timeSeries.list':
        return answerTimeSeriesList(project, url.searchParams, this.gpus, res, this.unexpected);
      case 'instances.aggregatedList':
        return this.aggregatedList(project, url.searchParams, res);
      case 'instances.get': {
        const vm = this.find(project, zone!, target!);
        return vm ? sendJson(res, instanceJson(vm)) : notFound(res, `projects/${project}/zones/${zone}/instances/${target}`);
      }
      case 'instances.stop':
        return this.stop(project, zone!, target!, url.searchParams, res);
      case 'zoneOperations.get':
      case 'globalOperations.get': {
        const name = route.api === 'globalOperations.get' ? zone! : target!;
        const operation = this.operations.get(name);
        const where = route.api === 'globalOperations.get' ? null : zone;
        if (!operation || operation.project !== project || operation.zone !== where)
          return notFound(res, `projects/${project}/${where ? `zones/${where}` : 'global'}/operations/${name}`);
        if (operation.status !== 'DONE') {
          operation.status = 'DONE';
          if (!operation.error) operation.finish();
        }
        return sendJson(res, operationJson(operation));
      }
      case 'instanceGroupManagers.get': {
        const group = this.groups.find((g) => g.project === project && g.zone === zone && g.name === target);
        return group ? sendJson(res, groupJson(group)) : notFound(res, `projects/${project}/zones/${zone}/instanceGroupManagers/${target}`);
      }
      case 'instanceGroupManagers.setInstanceTemplate':
        return this.setInstanceTemplate(project, zone!, target!, body, res);
      case 'instanceTemplates.get': {
        const template = this.templates.find((t) => t.project === project && t.name === zone);
        return template ? sendJson(res, templateJson(template)) : notFound(res, `projects/${project}/global/instanceTemplates/${zone}`);
      }
      case 'instanceTemplates.insert':
        return this.insertTemplate(project, body, res);
    }
  }

  private find(project: string, zone: string, nameOrId: string): FakeGceVm | undefined {
    return this.vms.find((vm) => vm.project === project && vm.zone === zone && (vm.name === nameOrId || vm.id === nameOrId));
  }

  private aggregatedList(project: string, query: URLSearchParams, res: ServerResponse): void {
    const max = Number(query.get('maxResults') ?? 500);
    if (!Number.isInteger(max) || max < 0 || max > 500)
      return sendError(
        res,
        400,
        'INVALID_ARGUMENT',
        `Invalid value for field 'maxResults': '${query.get('maxResults')}'. Must be less than or equal to 500`,
        'invalid',
      );
    const size = max === 0 ? 500 : max;
    const offset = query.get('pageToken') ? Number(query.get('pageToken')) : 0;
    if (!Number.isInteger(offset) || offset < 0) return sendError(res, 400, 'INVALID_ARGUMENT', 'Invalid page token.', 'invalid');
    const all = this.vms.filter((vm) => vm.project === project);
    const page = all.slice(offset, offset + size);
    const items: Record<string, unknown> = {};
    for (const zone of new Set(this.vms.map((vm) => vm.zone))) {
      const here = page.filter((vm) => vm.zone === zone);
      items[`zones/${zone}`] = here.length
        ? { instances: here.map(instanceJson) }
        : {
            warning: {
              code: 'NO_RESULTS_ON_PAGE',
              message: "There are no results for scope 'zones/" + zone + "' on this page.",
              data: [{ key: 'scope', value: `zones/${zone}` }],
            },
          };
    }
    sendJson(res, {
      kind: 'compute#instanceAggregatedList',
      id: `projects/${project}/aggregated/instances`,
      items,
      selfLink: `${BASE}/projects/${project}/aggregated/instances`,
      ...(offset + size < all.length ? { nextPageToken: String(offset + size) } : {}),
    });
  }

  private stop(project: string, zone: string, target: string, query: URLSearchParams, res: ServerResponse): void {
    const vm = this.find(project, zone, target);
    if (!vm) return notFound(res, `projects/${project}/zones/${zone}/instances/${target}`);
    if ((vm.localSsds ?? 0) > 0 && !query.has('discardLocalSsd'))
      return sendError(
        res,
        400,
        'INVALID_ARGUMENT',
        'VM has a Local SSD attached but an undefined value for `discard-local-ssd`. If using gcloud, please add `--discard-local-ssd=false` or `--discard-local-ssd=true` to your command.',
        'badRequest',
      );
    const running = vm.status === 'RUNNING';
    // A stop Compute Engine cannot do leaves the VM running.
    if (running && !vm.stopError) vm.status = 'STOPPING';
    this.start(res, {
      project,
      zone,
      type: 'stop',
      targetLink: `${BASE}/projects/${project}/zones/${zone}/instances/${vm.name}`,
      status: running ? 'RUNNING' : 'DONE',
      finish: () => (vm.status = 'TERMINATED'),
      ...(running && vm.stopError ? { error: vm.stopError } : {}),
    });
  }

  private start(res: ServerResponse, operation: Omit<FakeOperation, 'name'>): void {
    const started: FakeOperation = { ...operation, name: `operation-${Date.now()}-${randomUUID().slice(0, 8)}` };
    this.operations.set(started.name, started);
    sendJson(res, operationJson(started));
  }

  private setInstanceTemplate(project: string, zone: string, name: string, body: any, res: ServerResponse): void {
    const group = this.groups.find((g) => g.project === project && g.zone === zone && g.name === name);
    if (!group) return notFound(res, `projects/${project}/zones/${zone}/instanceGroupManagers/${name}`);
    const wanted = /(?:^|\/)projects\/([^/]+)\/global\/instanceTemplates\/([^/]+)$/.exec(String(body?.instanceTemplate ?? ''));
    const template = wanted && this.templates.find((t) => t.project === wanted[1] && t.name === wanted[2]);
    if (!template)
      return sendError(
        res,
        400,
        'INVALID_ARGUMENT',
        `Invalid value for field 'resource.instanceTemplate': '${body?.instanceTemplate}'. The URL is malformed or the template does not exist.`,
        'invalid',
      );
    this.start(res, {
      project,
      zone,
      type: 'setInstanceTemplate',
      targetLink: `${BASE}/projects/${project}/zones/${zone}/instanceGroupManagers/${name}`,
      status: 'RUNNING',
      finish: () => (group.template = template.name),
    });
  }

  private insertTemplate(project: string, body: any, res: ServerResponse): void {
    const name = String(body?.name ?? '');
    if (!/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name) || !body?.properties)
      return sendError(
        res,
        400,
        'INVALID_ARGUMENT',
        `Invalid value for field 'resource.name': '${name}'. Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'`,
        'invalid',
      );
    if (this.templates.some((t) => t.project === project && t.name === name))
      return sendError(
        res,
        409,
        'ALREADY_EXISTS',
        `The resource 'projects/${project}/global/instanceTemplates/${name}' already exists`,
        'alreadyExists',
      );
    this.start(res, {
      project,
      zone: null,
      type: 'insert',
      targetLink: `${BASE}/projects/${project}/global/instanceTemplates/${name}`,
      status: 'RUNNING',
      finish: () => this.templates.push({ project, name, properties: body.properties, description: body.description }),
    });
  }
}

function instanceJson(vm: FakeGceVm): Record<string, unknown> {
  const zoneUrl = `${BASE}/projects/${vm.project}/zones/${vm.zone}`;
  return {
    kind: 'compute#instance',
    id: vm.id,
    name: vm.name,
    zone: zoneUrl,
    machineType: `${zoneUrl}/machineTypes/${vm.machineType}`,
    status: vm.status,
    labels: vm.labels ?? {},
    labelFingerprint: '42WmSpB8rSM=',
    ...(vm.accelerators
      ? {
          guestAccelerators: [
            { acceleratorType: `${zoneUrl}/acceleratorTypes/${vm.accelerators.type}`, acceleratorCount: vm.accelerators.count },
          ],
        }
      : {}),
    scheduling: {
      provisioningModel: vm.provisioningModel ?? 'STANDARD',
      preemptible: vm.provisioningModel === 'SPOT',
      onHostMaintenance: 'TERMINATE',
      automaticRestart: vm.provisioningModel !== 'SPOT',
    },
    networkInterfaces: [
      { name: 'nic0', network: `${BASE}/projects/${vm.project}/global/networks/default`, networkIP: vm.networkIP ?? '10.128.0.2' },
    ],
    disks: [
      { kind: 'compute#attachedDisk', type: 'PERSISTENT', boot: true, deviceName: 'persistent-disk-0', index: 0 },
      ...Array.from({ length: vm.localSsds ?? 0 }, (_, i) => ({
        kind: 'compute#attachedDisk',
        type: 'SCRATCH',
        interface: 'NVME',
        index: i + 1,
      })),
    ],
    ...(vm.group
      ? { metadata: { items: [{ key: 'created-by', value: `projects/123456789012/zones/${vm.zone}/instanceGroupManagers/${vm.group}` }] } }
      : {}),
    selfLink: `${zoneUrl}/instances/${vm.name}`,
  };
}

function operationJson(operation: FakeOperation): Record<string, unknown> {
  const where = `${BASE}/projects/${operation.project}/${operation.zone ? `zones/${operation.zone}` : 'global'}`;
  return {
    kind: 'compute#operation',
    id: '7360395918532457041',
    name: operation.name,
    ...(operation.zone ? { zone: where } : {}),
    operationType: operation.type,
    targetLink: operation.targetLink,
    status: operation.status,
    ...(operation.status === 'DONE' && operation.error ? { error: { errors: [operation.error] }, httpErrorStatusCode: 400 } : {}),
    progress: operation.status === 'DONE' ? 100 : 0,
    insertTime: new Date().toISOString(),
    selfLink: `${where}/operations/${operation.name}`,
  };
}

function groupJson(group: FakeGceGroup): Record<string, unknown> {
  const zoneUrl = `${BASE}/projects/${group.project}/zones/${group.zone}`;
  return {
    kind: 'compute#instanceGroupManager',
    name: group.name,
    zone: zoneUrl,
    instanceTemplate: `${BASE}/projects/${group.project}/global/instanceTemplates/${group.template}`,
    targetSize: 1,
    selfLink: `${zoneUrl}/instanceGroupManagers/${group.name}`,
  };
}

function templateJson(template: FakeGceTemplate): Record<string, unknown> {
  return {
    kind: 'compute#instanceTemplate',
    id: '6250012345678901234',
    name: template.name,
    ...(template.description ? { description: template.description } : {}),
    properties: template.properties,
    selfLink: `${BASE}/projects/${template.project}/global/instanceTemplates/${template.name}`,
  };
}

function notFound(res: ServerResponse, resource: string): void {
  sendError(res, 404, 'NOT_FOUND', `The resource '${resource}' was not found`, 'notFound');
}

function permissionOf(api: ComputeApi): string {
  return {
    'instances.aggregatedList': 'compute.instances.list',
    'instances.get': 'compute.instances.get',
    'instances.stop': 'compute.instances.stop',
    'zoneOperations.get': 'compute.zoneOperations.get',
    'monitoring.timeSeries.list': 'monitoring.timeSeries.list',
    'instanceGroupManagers.get': 'compute.instanceGroupManagers.get',
    'instanceGroupManagers.setInstanceTemplate': 'compute.instanceGroupManagers.update',
    'instanceTemplates.get': 'compute.instanceTemplates.get',
    'instanceTemplates.insert': 'compute.instanceTemplates.create',
    'globalOperations.get': 'compute.globalOperations.get',
    'sts.token': '',
  }[api];
}

function routeOf(method: string, path: string): { api: ComputeApi; params: string[] } | undefined {
  const table: [string, RegExp, ComputeApi][] = [
    ['POST', /^\/v1\/token$/, 'sts.token'],
    ['GET', /^\/compute\/v1\/projects\/([^/]+)\/aggregated\/instances$/, 'instances.aggregatedList'],
    ['GET', /^\/compute\/v1\/projects\/([^/]+)\/zones\/([^/]+)\/instances\/([^/]+)$/, 'instances.get'],
    ['POST', /^\/compute\/v1\/projects\/([^/]+)\/zones\/([^/]+)\/instances\/([^/]+)\/stop$/, 'instances.stop'],
    ['GET', /^\/compute\/v1\/projects\/([^/]+)\/zones\/([^/]+)\/operations\/([^/]+)$/, 'zoneOperations.get'],
    ['GET', /^\/v3\/projects\/([^/]+)\/timeSeries$/, 'monitoring.timeSeries.list'],
    ['GET', /^\/compute\/v1\/projects\/([^/]+)\/zones\/([^/]+)\/instanceGroupManagers\/([^/]+)$/, 'instanceGroupManagers.get'],
    [
      'POST',
      /^\/compute\/v1\/projects\/([^/]+)\/zones\/([^/]+)\/instanceGroupManagers\/([^/]+)\/setInstanceTemplate$/,
      'instanceGroupManagers.setInstanceTemplate',
    ],
    ['GET', /^\/compute\/v1\/projects\/([^/]+)\/global\/instanceTemplates\/([^/]+)$/, 'instanceTemplates.get'],
    ['POST', /^\/compute\/v1\/projects\/([^/]+)\/global\/instanceTemplates$/, 'instanceTemplates.insert'],
    ['GET', /^\/compute\/v1\/projects\/([^/]+)\/global\/operations\/([^/]+)$/, 'globalOperations.get'],
  ];
  for (const [m, pattern, api] of table) {
    const match = method === m ? pattern.exec(path) : null;
    if (match) return { api, params: match.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}
