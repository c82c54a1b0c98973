import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody } from './http-body.js';

/** The ARM API version @azure/arm-compute 25.1 speaks; the fake refuses any other, as ARM refuses an unknown one. */
export const COMPUTE_API_VERSION = '2026-04-01';

/** The bearer token the fake accepts (a test's static TokenCredential hands it out). */
export const FAKE_ARM_TOKEN = 'fake-arm-token-7c2e';

export type ArmCall =
  | 'vm.listAll'
  | 'vm.get'
  | 'vm.instanceView'
  | 'vm.deallocate'
  | 'vmss.get'
  | 'vmss.update'
  | 'operation.status'
  | 'operation.result';

/** The RBAC action each call needs: `deny` makes the fake answer AuthorizationFailed for it. */
const ACTION_OF: Record<ArmCall, string> = {
  'vm.listAll': 'Microsoft.Compute/virtualMachines/read',
  'vm.get': 'Microsoft.Compute/virtualMachines/read',
  'vm.instanceView': 'Microsoft.Compute/virtualMachines/instanceView/read',
  'vm.deallocate': 'Microsoft.Compute/virtualMachines/deallocate/action',
  'vmss.get': 'Microsoft.Compute/virtualMachineScaleSets/read',
  'vmss.update': 'Microsoft.Compute/virtualMachineScaleSets/write',
  'operation.status': 'Microsoft.Compute/locations/operations/read',
  'operation.result': 'Microsoft.Compute/locations/operations/read',
};

export type FakePowerState = 'starting' | 'running' | 'stopping' | 'stopped' | 'deallocating' | 'deallocated';

/** One VM as the fake holds it. */
export interface FakeAzureVm {
  subscriptionId: string;
  resourceGroup: string;
  name: string;
  location: string;
  vmSize: string;
  power: FakePowerState;
  tags?: Record<string, string>;
  priority?: 'Regular' | 'Spot';
  computerName?: string;
  /** The scale set (in the VM's resource group) the VM belongs to. */
  scaleSet?: string;
}

/** One scale set as the fake holds it: its orchestration, its VMs' priority and eviction, and its Spot Priority Mix. */
export interface FakeAzureScaleSet {
  subscriptionId: string;
  resourceGroup: string;
  name: string;
  location: string;
  orchestrationMode: 'Flexible' | 'Uniform';
  priority?: 'Regular' | 'Spot';
  evictionPolicy?: 'Deallocate' | 'Delete';
  maxPrice?: number;
  mix?: { base: number; percent: number };
}

export interface ArmRequest {
  call: ArmCall;
  method: string;
  path: string;
  query: URLSearchParams;
}

interface Operation {
  /** What the operation does when it ends. */
  finish: () => void;
  /** The body its result (the Location URL) answers once it ended: the resource as changed; none for an action. */
  result?: () => object;
  /** Polls left before it reports Succeeded. */
  pollsLeft: number;
  status: 'InProgress' | 'Succeeded';
}

/**
 * Azure Resource Manager's Compute API on 127.0.0.1, as @azure/arm-compute speaks it: the
 * subscription's VM list in pages joined by `nextLink`, a VM's model (with `$expand=instanceView`)
 * and its instance view, and deallocate as a long-running operation (202 with
 * `Azure-AsyncOperation` and `Location`; the operation reports InProgress, then Succeeded, when the
 * VM is deallocated). Like ARM it names resources without regard to case, refuses a request without
 * the bearer token (401) or the api-version (400), answers errors as ARM's `{ error: { code,
 * message } }` body, answers a denied action with 403 AuthorizationFailed and throttles with 429
 * and `Retry-After`. A deallocate of a VM already deallocating or deallocated is accepted and does
 * nothing, as ARM does. Requests reach it over plain http through the test transport
 * (test/support/plain-http-transport.ts); its links say https, as ARM's do.
 */
export class FakeAzureResourceManager {
  readonly requests: ArmRequest[] = [];
  readonly unexpected: string[] = [];
  private readonly operations = new Map<string, Operation>();
  private readonly denied = new Set<string>();
  private throttled = 0;
  private body = '';

  private constructor(
    private readonly server: Server,
    /** The endpoint the SDK is given (https, carried over http by the test transport). */
    readonly endpoint: string,
    readonly vms: FakeAzureVm[],
    private readonly pageSize: number,
    private readonly pollsBeforeDone: number,
    readonly scaleSets: FakeAzureScaleSet[],
  ) {}

  static async start(options: {
    vms: FakeAzureVm[];
    scaleSets?: FakeAzureScaleSet[];
    pageSize?: number;
    pollsBeforeDone?: number;
  }): Promise<FakeAzureResourceManager> {
    let fake: FakeAzureResourceManager | undefined;
    const server = createServer((req, res) => {
      void fake!.handle(req, res).catch((error: unknown) => {
        fake!.unexpected.push(String(error));
        armError(res, 500, 'InternalServerError', String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeAzureResourceManager(
      server,
      `https://127.0.0.1:${port}`,
      options.vms.map((vm) => ({ ...vm })),
      options.pageSize ?? 100,
      options.pollsBeforeDone ?? 1,
      (options.scaleSets ?? []).map((set) => ({ ...set, ...(set.mix ? { mix: { ...set.mix } } : {}) })),
    );
    return fake;
  }

  /** Answer AuthorizationFailed for this RBAC action from now on. */
  deny(action: string): void {
    this.denied.add(action);
  }

  /** Answer the next `count` requests with 429 Too Many Requests (Retry-After: 0). */
  throttleNext(count: number): void {
    this.throttled = count;
  }

  callsOf(call: ArmCall): ArmRequest[] {
    return this.requests.filter((r) => r.call === call);
  }

  vm(name: string): FakeAzureVm {
    const vm = this.vms.find((v) => v.name.toLowerCase() === name.toLowerCase());
    if (!vm) throw new Error(`no fake VM ${name}`);
    return vm;
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`unexpected ARM requests: ${this.unexpected.join('; ')}`);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.body = await readBody(req);
    const url = new URL(req.url ?? '/', this.endpoint);
    const path = url.pathname;
    const route = this.route(req.method ?? 'GET', path);
    if (!route) {
      this.unexpected.push(`${req.method} ${path}`);
      return armError(res, 404, 'InvalidResourceType', `The resource type could not be found for ${path}.`);
    }
    this.requests.push({ call: route.call, method: req.method ?? 'GET', path, query: url.searchParams });
    if (req.headers.authorization !== `Bearer ${FAKE_ARM_TOKEN}`)
      return armError(res, 401, 'InvalidAuthenticationToken', 'The access token is invalid.');
    if (url.searchParams.get('api-version') !== COMPUTE_API_VERSION)
      return armError(
        res,
        400,
        'MissingApiVersionParameter',
        'The api-version query parameter (?api-version=) is required for all requests.',
      );
    if (this.throttled > 0) {
      this.throttled -= 1;
      res.setHeader('Retry-After', '0');
      return armError(res, 429, 'TooManyRequests', 'The request is being throttled.');
    }
    if (this.denied.has(ACTION_OF[route.call]))
      return armError(
        res,
        403,
        'AuthorizationFailed',
        `The client 'burnrate' with object id '00000000-0000-0000-0000-00000000b0b0' does not have authorization to perform action '${ACTION_OF[route.call]}' over scope '${path}' or the scope is invalid.`,
      );
    return route.answer(url, res);
  }

  private route(method: string, path: string): { call: ArmCall; answer: (url: URL, res: ServerResponse) => void } | undefined {
    const list = /^\/subscriptions\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachines$/i.exec(path);
    if (list && method === 'GET') return { call: 'vm.listAll', answer: (url, res) => this.listAll(list[1]!, url, res) };
    const op = /^\/subscriptions\/[^/]+\/providers\/Microsoft\.Compute\/locations\/[^/]+\/(operations|operationResults)\/([^/]+)$/i.exec(
      path,
    );
    if (op && method === 'GET')
      return op[1]!.toLowerCase() === 'operations'
        ? { call: 'operation.status', answer: (_, res) => this.operationStatus(op[2]!, res) }
        : { call: 'operation.result', answer: (_, res) => this.operationResult(op[2]!, res) };
    const set =
      /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachineScaleSets\/([^/]+)$/i.exec(path);
    if (set) {
      const found = this.scaleSets.find(
        (v) =>
          v.subscriptionId.toLowerCase() === set[1]!.toLowerCase() &&
          v.resourceGroup.toLowerCase() === set[2]!.toLowerCase() &&
          v.name.toLowerCase() === set[3]!.toLowerCase(),
      );
      const answer = (then: (found: FakeAzureScaleSet, res: ServerResponse) => void) => (_: URL, res: ServerResponse) =>
        found
          ? then(found, res)
          : armError(
              res,
              404,
              'ResourceNotFound',
              `The Resource 'Microsoft.Compute/virtualMachineScaleSets/${set[3]}' under resource group '${set[2]}' was not found.`,
            );
      if (method === 'GET') return { call: 'vmss.get', answer: answer((found, res) => json(res, 200, scaleSetJson(found))) };
      if (method === 'PATCH') return { call: 'vmss.update', answer: answer((found, res) => this.updateScaleSet(found, res)) };
      return undefined;
    }
    const vm =
      /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachines\/([^/]+)(\/instanceView|\/deallocate)?$/i.exec(
        path,
      );
    if (!vm) return undefined;
    const find = () =>
      this.vms.find(
        (v) =>
          v.subscriptionId.toLowerCase() === vm[1]!.toLowerCase() &&
          v.resourceGroup.toLowerCase() === vm[2]!.toLowerCase() &&
          v.name.toLowerCase() === vm[3]!.toLowerCase(),
      );
    const notFound = (res: ServerResponse) =>
      armError(
        res,
        404,
        'ResourceNotFound',
        `The Resource 'Microsoft.Compute/virtualMachines/${vm[3]}' under resource group '${vm[2]}' was not found.`,
      );
    const suffix = vm[4]?.toLowerCase();
    if (!suffix && method === 'GET')
      return {
        call: 'vm.get',
        answer: (url, res) => {
          const found = find();
          if (!found) return notFound(res);
          json(res, 200, this.vmJson(found, url.searchParams.get('$expand')?.toLowerCase() === 'instanceview'));
        },
      };
    if (suffix === '/instanceview' && method === 'GET')
      return {
        call: 'vm.instanceView',
        answer: (_, res) => {
          const found = find();
          return found ? json(res, 200, instanceView(found)) : notFound(res);
        },
      };
    if (suffix === '/deallocate' && method === 'POST')
      return {
        call: 'vm.deallocate',
        answer: (_, res) => {
          const found = find();
          return found ? this.deallocate(found, res) : notFound(res);
        },
      };
    return undefined;
  }

  private listAll(subscriptionId: string, url: URL, res: ServerResponse): void {
    const all = this.vms.filter((v) => v.subscriptionId.toLowerCase() === subscriptionId.toLowerCase());
    const skip = Number(url.searchParams.get('$skiptoken') ?? '0');
    const page = all.slice(skip, skip + this.pageSize);
    const next = skip + this.pageSize < all.length;
    json(res, 200, {
      value: page.map((vm) => this.vmJson(vm, false)),
      ...(next
        ? {
            nextLink: `${this.endpoint}/subscriptions/${subscriptionId}/providers/Microsoft.Compute/virtualMachines?api-version=${COMPUTE_API_VERSION}&$skiptoken=${skip + this.pageSize}`,
          }
        : {}),
    });
  }

  private deallocate(vm: FakeAzureVm, res: ServerResponse): void {
    const id = randomUUID();
    if (vm.power !== 'deallocated' && vm.power !== 'deallocating') vm.power = 'deallocating';
    this.operations.set(id, { finish: () => (vm.power = 'deallocated'), pollsLeft: this.pollsBeforeDone, status: 'InProgress' });
    this.operationHeaders(res, vm, id);
    res.writeHead(202).end();
  }

  /**
   * A scale set's PATCH as ARM takes it: its priority, eviction policy and orchestration cannot
   * change (PropertyChangeNotAllowed); a Spot Priority Mix only on a Flexible scale set of Spot
   * priority. Accepted, it answers 200 with the scale set as it will be and an Azure-AsyncOperation
   * the client follows to Succeeded, when the change is made.
   */
  private updateScaleSet(set: FakeAzureScaleSet, res: ServerResponse): void {
    const properties = ((JSON.parse(this.body || '{}') as { properties?: Record<string, any> }).properties ?? {}) as Record<string, any>;
    const profile = (properties.virtualMachineProfile ?? {}) as Record<string, any>;
    for (const [name, value, now] of [
      ['priority', profile.priority, set.priority ?? 'Regular'],
      ['evictionPolicy', profile.evictionPolicy, set.evictionPolicy],
      ['orchestrationMode', properties.orchestrationMode, set.orchestrationMode],
    ] as const)
      if (value !== undefined && value !== now) {
        this.unexpected.push(`vmss.update changes ${name}`);
        return armError(res, 400, 'PropertyChangeNotAllowed', `Changing property '${name}' is not allowed.`);
      }
    const mix = properties.priorityMixPolicy as
      | { baseRegularPriorityCount?: number; regularPriorityPercentageAboveBase?: number }
      | undefined;
    if (mix && (set.orchestrationMode !== 'Flexible' || set.priority !== 'Spot')) {
      this.unexpected.push('vmss.update sets a priority mix Azure refuses');
      return armError(res, 400, 'BadRequest', 'Priority mix policy is only supported on Flexible scale sets with Spot priority.');
    }
    const id = randomUUID();
    const next: FakeAzureScaleSet = {
      ...set,
      ...(mix ? { mix: { base: mix.baseRegularPriorityCount ?? 0, percent: mix.regularPriorityPercentageAboveBase ?? 0 } } : {}),
      ...(profile.billingProfile?.maxPrice !== undefined ? { maxPrice: profile.billingProfile.maxPrice as number } : {}),
    };
    this.operations.set(id, {
      finish: () => Object.assign(set, next),
      result: () => scaleSetJson(set),
      pollsLeft: this.pollsBeforeDone,
      status: 'InProgress',
    });
    this.operationHeaders(res, set, id);
    json(res, 200, scaleSetJson(next, 'Updating'));
  }

  private operationHeaders(res: ServerResponse, of: { subscriptionId: string; location: string }, id: string): void {
    const base = `${this.endpoint}/subscriptions/${of.subscriptionId}/providers/Microsoft.Compute/locations/${of.location}`;
    res.setHeader('Azure-AsyncOperation', `${base}/operations/${id}?p=x&api-version=${COMPUTE_API_VERSION}`);
    res.setHeader('Location', `${base}/operationResults/${id}?p=x&api-version=${COMPUTE_API_VERSION}`);
    res.setHeader('Retry-After', '0');
  }

  private advance(id: string): Operation | undefined {
    const op = this.operations.get(id);
    if (!op) return undefined;
    if (op.status === 'InProgress' && op.pollsLeft-- <= 0) {
      op.status = 'Succeeded';
      op.finish();
    }
    return op;
  }

  private operationStatus(id: string, res: ServerResponse): void {
    const op = this.advance(id);
    if (!op) return armError(res, 404, 'OperationNotFound', `The operation ${id} was not found.`);
    res.setHeader('Retry-After', '0');
    json(res, 200, { name: id, status: op.status, startTime: new Date().toISOString() });
  }

  private operationResult(id: string, res: ServerResponse): void {
    const op = this.operations.get(id);
    if (!op) return armError(res, 404, 'OperationNotFound', `The operation ${id} was not found.`);
    if (op.status === 'InProgress') {
      res.setHeader('Retry-After', '0');
      return void res.writeHead(202).end();
    }
    if (op.result) return json(res, 200, op.result());
    res.writeHead(200).end();
  }

  private vmJson(vm: FakeAzureVm, withInstanceView: boolean): object {
    return {
      id: `/subscriptions/${vm.subscriptionId}/resourceGroups/${vm.resourceGroup}/providers/Microsoft.Compute/virtualMachines/${vm.name}`,
      name: vm.name,
      type: 'Microsoft.Compute/virtualMachines',
      location: vm.location,
      ...(vm.tags ? { tags: vm.tags } : {}),
      properties: {
        vmId: `00000000-0000-4000-8000-${vm.name.length.toString().padStart(12, '0')}`,
        hardwareProfile: { vmSize: vm.vmSize },
        osProfile: { computerName: vm.computerName ?? vm.name, adminUsername: 'azureuser' },
        priority: vm.priority ?? 'Regular',
        ...(vm.scaleSet
          ? {
              virtualMachineScaleSet: {
                id: `/subscriptions/${vm.subscriptionId}/resourceGroups/${vm.resourceGroup}/providers/Microsoft.Compute/virtualMachineScaleSets/${vm.scaleSet}`,
              },
            }
          : {}),
        ...(vm.priority === 'Spot' ? { evictionPolicy: 'Deallocate', billingProfile: { maxPrice: -1 } } : {}),
        provisioningState: 'Succeeded',
        ...(withInstanceView ? { instanceView: instanceView(vm) } : {}),
      },
    };
  }
}

function scaleSetJson(set: FakeAzureScaleSet, provisioningState = 'Succeeded'): object {
  return {
    id: `/subscriptions/${set.subscriptionId}/resourceGroups/${set.resourceGroup}/providers/Microsoft.Compute/virtualMachineScaleSets/${set.name}`,
    name: set.name,
    type: 'Microsoft.Compute/virtualMachineScaleSets',
    location: set.location,
    sku: { name: 'Standard_NC24ads_A100_v4', capacity: 2 },
    properties: {
      orchestrationMode: set.orchestrationMode,
      provisioningState,
      platformFaultDomainCount: 1,
      virtualMachineProfile: {
        ...(set.priority ? { priority: set.priority } : {}),
        ...(set.evictionPolicy ? { evictionPolicy: set.evictionPolicy } : {}),
        ...(set.maxPrice !== undefined ? { billingProfile: { maxPrice: set.maxPrice } } : {}),
      },
      ...(set.mix
        ? { priorityMixPolicy: { baseRegularPriorityCount: set.mix.base, regularPriorityPercentageAboveBase: set.mix.percent } }
        : {}),
    },
  };
}

function instanceView(vm: FakeAzureVm): object {
  return {
    computerName: vm.computerName ?? vm.name,
    osName: 'ubuntu',
    statuses: [
      { code: 'ProvisioningState/succeeded', level: 'Info', displayStatus: 'Provisioning succeeded' },
      { code: `PowerState/${vm.power}`, level: 'Info', displayStatus: `VM ${vm.power}` },
    ],
  };
}

function json(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-ms-request-id': randomUUID() }).end(JSON.stringify(body));
}

/** ARM's error body. */
function armError(res: ServerResponse, status: number, code: string, message: string): void {
  json(res, status, { error: { code, message } });
}
