import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './http-body.js';

/** A Kubernetes object as the fake stores it: plain JSON, `metadata.namespace` absent for cluster-scoped kinds. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[];
    resourceVersion?: string;
    creationTimestamp?: string;
  };
  spec?: any;
  status?: any;
}

/** One request as the fake saw it. */
export interface KubeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  body: unknown;
  status: number;
  /** Carried out although answered with a failure (`afterApply`). */
  applied?: boolean;
}

/** A failure the next matching request gets, as the API server words it. */
export interface KubeFailure {
  method?: string;
  /** Substring of the path. */
  path: string;
  status: 403 | 404 | 409 | 500;
  times?: number;
  /** Let this many matching requests through first. */
  skip?: number;
  /** The request is carried out (stored), and then answered with the failure: an answer lost after etcd wrote it. */
  afterApply?: boolean;
}

/** Kinds the fake serves: URL segment → group/version and kind, namespaced or not. */
const RESOURCES: Record<string, { group: string; kind: string; namespaced: boolean }> = {
  nodes: { group: 'v1', kind: 'Node', namespaced: false },
  namespaces: { group: 'v1', kind: 'Namespace', namespaced: false },
  pods: { group: 'v1', kind: 'Pod', namespaced: true },
  deployments: { group: 'apps/v1', kind: 'Deployment', namespaced: true },
  replicasets: { group: 'apps/v1', kind: 'ReplicaSet', namespaced: true },
  statefulsets: { group: 'apps/v1', kind: 'StatefulSet', namespaced: true },
  jobs: { group: 'batch/v1', kind: 'Job', namespaced: true },
  notebooks: { group: 'kubeflow.org/v1', kind: 'Notebook', namespaced: true },
  inferenceservices: { group: 'serving.kserve.io/v1beta1', kind: 'InferenceService', namespaced: true },
  rayclusters: { group: 'ray.io/v1', kind: 'RayCluster', namespaced: true },
  rayjobs: { group: 'ray.io/v1', kind: 'RayJob', namespaced: true },
  resourceclaims: { group: 'resource.k8s.io/v1', kind: 'ResourceClaim', namespaced: true },
  resourceslices: { group: 'resource.k8s.io/v1', kind: 'ResourceSlice', namespaced: false },
  deviceclasses: { group: 'resource.k8s.io/v1', kind: 'DeviceClass', namespaced: false },
};

/**
 * A Kubernetes API server on 127.0.0.1 for tests, enough of it for what burnrate reads and
 * changes: lists (cluster-wide and per namespace) paged with `limit` and `continue` tokens, GET and
 * PATCH of objects with the three patch content types (`application/json-patch+json` applies
 * RFC 6902 operations, merge and strategic merge apply RFC 7386 here), the `/scale` subresource of
 * Deployments and StatefulSets, `dryRun=All` (validated, not stored), bearer-token
 * authentication, and the API's `Status` bodies for 401, 403, 404, 409 and 415. Failures can be
 * injected per path. A kind listed in `crdsMissing` answers 404 as a cluster without that CRD (or,
 * for `resourceclaims`, `resourceslices` and `deviceclasses`, before Kubernetes 1.34 without
 * `resource.k8s.io/v1`) does.
 */
export class FakeKubeApi {
  readonly requests: KubeRequest[] = [];
  readonly unexpected: string[] = [];
  private readonly objects = new Map<string, KubeObject>();
  private readonly failures: Required<KubeFailure>[] = [];
  private version = 1000;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly token: string,
    private readonly crdsMissing: ReadonlySet<string>,
  ) {}

  static async start(options: { objects?: readonly KubeObject[]; token?: string; crdsMissing?: readonly string[] } = {}) {
    let fake: FakeKubeApi | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeKubeApi(server, `http://127.0.0.1:${port}`, options.token ?? 'kube-test-token', new Set(options.crdsMissing ?? []));
    for (const object of options.objects ?? []) fake.put(object);
    return fake;
  }

  get bearerToken(): string {
    return this.token;
  }

  put(object: KubeObject): void {
    const copy = structuredClone(object);
    copy.metadata.uid ??= `uid-${object.kind}-${object.metadata.namespace ?? ''}-${object.metadata.name}`;
    copy.metadata.resourceVersion = String(++this.version);
    this.objects.set(keyOf(resourceOf(copy.kind), copy.metadata.namespace, copy.metadata.name), copy);
  }

  get(kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.objects.get(keyOf(resourceOf(kind), namespace, name));
    return found && structuredClone(found);
  }

  /** The requests that changed something (PATCH/PUT without dryRun), answered with success or not. */
  writes(): KubeRequest[] {
    return this.requests.filter(
      (r) => (r.method === 'PATCH' || r.method === 'PUT') && r.query.dryRun !== 'All' && (r.status < 300 || r.applied === true),
    );
  }

  failNext(failure: KubeFailure): void {
    this.failures.push({
      method: failure.method ?? '',
      times: failure.times ?? 1,
      skip: failure.skip ?? 0,
      afterApply: failure.afterApply ?? false,
      ...failure,
    } as Required<KubeFailure>);
  }

  assertNoUnexpectedRequests(): void {
    if (this.unexpected.length > 0) throw new Error(`FakeKubeApi got unexpected requests:\n${this.unexpected.join('\n')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const text = await readBody(req);
    const request: KubeRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      contentType: req.headers['content-type']?.split(';')[0],
      body: text ? safeJson(text) : undefined,
      status: 0,
    };
    this.requests.push(request);
    let lostAnswer: KubeFailure | undefined;
    const reply = (code: number, body: unknown) => {
      // A failure after the fact: whatever the request did stays done, the client hears the failure.
      if (lostAnswer && code < 300) {
        request.applied = true;
        [code, body] = [lostAnswer.status, failureStatus(lostAnswer.status, request)];
      }
      request.status = code;
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${this.token}`) return reply(401, status(401, 'Unauthorized', 'Unauthorized'));
    const failure = this.failures.find((f) => request.path.includes(f.path) && (!f.method || f.method === request.method));
    if (failure && failure.skip > 0) failure.skip -= 1;
    else if (failure) {
      if (--failure.times <= 0) this.failures.splice(this.failures.indexOf(failure), 1);
      if (!failure.afterApply) return reply(failure.status, failureStatus(failure.status, request));
      lostAnswer = failure;
    }
    const route = parsePath(url.pathname);
    if (!route) {
      this.unexpected.push(`${req.method} ${url.pathname}`);
      return reply(404, status(404, 'NotFound', 'the server could not find the requested resource'));
    }
    if (this.crdsMissing.has(route.resource))
      return reply(404, status(404, 'NotFound', 'the server could not find the requested resource'));
    if (!route.name && req.method === 'GET') return reply(200, this.list(route, request.query));
    if (!route.name) return this.unexpectedRequest(request, reply);
    const key = keyOf(route.resource, route.namespace, route.name);
    const object = this.objects.get(key);
    if (!object) return reply(404, status(404, 'NotFound', `${route.resource} "${route.name}" not found`, route));
    if (route.subresource && route.subresource !== 'scale') return this.unexpectedRequest(request, reply);
    const scale = route.subresource === 'scale';
    if (scale && !['deployments', 'statefulsets'].includes(route.resource)) return this.unexpectedRequest(request, reply);
    if (req.method === 'GET') return reply(200, scale ? scaleOf(object) : object);
    if (req.method !== 'PATCH') return this.unexpectedRequest(request, reply);

    // A resourceVersion in the patch is a precondition, as the API server treats it.
    const expected = (request.body as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion;
    if (expected !== undefined && expected !== object.metadata.resourceVersion) return reply(409, failureStatus(409, request));
    const patched = applyPatch(scale ? scaleOf(object) : object, request.contentType, request.body);
    if (typeof patched === 'string')
      return reply(patched.startsWith('415') ? 415 : 422, status(Number(patched.slice(0, 3)), 'Invalid', patched.slice(4)));
    const updated = scale ? { ...object, spec: { ...object.spec, replicas: patched.spec?.replicas } } : patched;
    if (request.query.dryRun === 'All') return reply(200, scale ? scaleOf(updated) : updated);
    updated.metadata.resourceVersion = String(++this.version);
    this.objects.set(key, updated);
    return reply(200, scale ? scaleOf(updated) : updated);
  }

  private unexpectedRequest(request: KubeRequest, reply: (status: number, body: unknown) => void): void {
    this.unexpected.push(`${request.method} ${request.path}`);
    reply(405, status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'));
  }

  /** Objects of the kind (and namespace), ordered by key, `limit` a page with a `continue` token for the rest. */
  private list(route: Route, query: Record<string, string>): unknown {
    const { group, kind } = RESOURCES[route.resource]!;
    const prefix = `${route.resource}/${route.namespace ?? ''}`;
    const all = [...this.objects.entries()]
      .filter(([key]) => (route.namespace ? key.startsWith(`${prefix}/`) : key.startsWith(`${route.resource}/`)))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, object]) => object)
      .filter((object) => matchesLabels(object, query.labelSelector));
    const from = query.continue ? Number(Buffer.from(query.continue, 'base64url').toString()) : 0;
    const limit = query.limit ? Number(query.limit) : all.length;
    const items = all.slice(from, from + limit);
    const next = from + limit < all.length ? Buffer.from(String(from + limit)).toString('base64url') : undefined;
    return {
      apiVersion: group,
      kind: `${kind}List`,
      metadata: {
        resourceVersion: String(this.version),
        ...(next ? { continue: next, remainingItemCount: all.length - from - limit } : {}),
      },
      items,
    };
  }
}

interface Route {
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** `/api/v1/...` and `/apis/<group>/<version>/...`, cluster-wide or in `namespaces/<ns>/`. */
function parsePath(path: string): Route | null {
  const parts = path.split('/').filter(Boolean);
  let rest: string[];
  if (parts[0] === 'api' && parts[1] === 'v1') rest = parts.slice(2);
  else if (parts[0] === 'apis' && parts.length >= 3) rest = parts.slice(3);
  else return null;
  const route: Route = { resource: '' };
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    route.namespace = rest[1];
    rest = rest.slice(2);
  }
  [route.resource, route.name, route.subresource] = rest as [string, string?, string?];
  if (!route.resource || !RESOURCES[route.resource]) return null;
  const group = RESOURCES[route.resource]!.group;
  const pathGroup = parts[0] === 'api' ? 'v1' : `${parts[1]}/${parts[2]}`;
  return group === pathGroup ? route : null;
}

function resourceOf(kind: string): string {
  const found = Object.entries(RESOURCES).find(([, r]) => r.kind === kind);
  if (!found) throw new Error(`FakeKubeApi does not serve kind ${kind}`);
  return found[0];
}

const keyOf = (resource: string, namespace: string | undefined, name: string) => `${resource}/${namespace ?? ''}/${name}`;

function scaleOf(object: KubeObject): KubeObject {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: object.metadata.name, namespace: object.metadata.namespace, resourceVersion: object.metadata.resourceVersion },
    spec: { replicas: object.spec?.replicas ?? 1 },
    status: { replicas: object.status?.replicas ?? object.spec?.replicas ?? 1 },
  };
}

/** `a=b,c=d` equality selectors only. */
function matchesLabels(object: KubeObject, selector: string | undefined): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    return object.metadata.labels?.[key!] === value;
  });
}

/** The patched copy, or "415 ..."/"422 ..." with the API server's reason. */
function applyPatch(object: KubeObject, contentType: string | undefined, body: unknown): KubeObject | string {
  const copy = structuredClone(object);
  if (contentType === 'application/json-patch+json') {
    if (!Array.isArray(body)) return '422 json patch must be an array of operations';
    for (const op of body as { op: string; path: string; value?: unknown }[]) {
      const segments = op.path
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      const last = segments.pop()!;
      let target: any = copy;
      for (const s of segments) target = target[s] ??= {};
      if (op.op === 'add' || op.op === 'replace') target[last] = op.value;
      else if (op.op === 'remove') delete target[last];
      else return `422 unsupported json patch operation ${op.op}`;
    }
    return copy;
  }
  if (contentType === 'application/merge-patch+json' || contentType === 'application/strategic-merge-patch+json') {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return '422 merge patch must be a JSON object';
    return mergePatch(copy, body as Record<string, unknown>) as KubeObject;
  }
  return `415 the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got ${contentType})`;
}

/** RFC 7386: null removes, objects merge, anything else replaces. */
function mergePatch(target: any, patch: Record<string, unknown>): unknown {
  const out = target && typeof target === 'object' && !Array.isArray(target) ? target : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (typeof value === 'object' && !Array.isArray(value)) out[key] = mergePatch(out[key], value as Record<string, unknown>);
    else out[key] = value;
  }
  return out;
}

function status(code: number, reason: string, message: string, route?: Route): unknown {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(route ? { details: { name: route.name, kind: route.resource } } : {}),
    code,
  };
}

function failureStatus(code: number, request: KubeRequest): unknown {
  switch (code) {
    case 403:
      return status(
        403,
        'Forbidden',
        `${request.path} is forbidden: User "system:serviceaccount:burnrate:burnrate" cannot ${request.method.toLowerCase()} resource`,
      );
    case 404:
      return status(404, 'NotFound', 'not found');
    case 409:
      return status(
        409,
        'Conflict',
        'Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again',
      );
    default:
      return status(500, 'InternalError', 'Internal error occurred: etcdserver: request timed out');
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
