import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeLaunchTemplates, LAUNCH_TEMPLATE_ACTIONS, type FakeLaunchTemplate } from './fake-ec2-launch-templates.js';
import { readBody, sigV4Scope } from './http-body.js';

export type Ec2StateName = 'pending' | 'running' | 'shutting-down' | 'terminated' | 'stopping' | 'stopped';

export interface FakeEc2Instance {
  id: string;
  state: Ec2StateName;
  tags?: Record<string, string>;
  instanceType?: string;
  /** The region it lives in: only requests signed for that region see it. Absent: every region sees it. */
  region?: string;
  privateDnsName?: string;
  privateIp?: string;
  /** EC2's InstanceLifecycle: `spot` for spot instances, absent for on-demand. */
  lifecycle?: 'spot' | 'scheduled' | 'capacity-block';
  /** The capacity reservation it runs in (a Capacity Block's instance runs in the block's). */
  capacityReservationId?: string;
}

/** A capacity reservation as DescribeCapacityReservations describes it: a Capacity Block (`capacity-block`) or an on-demand one. */
export interface FakeCapacityReservation {
  id: string;
  region: string;
  instanceType: string;
  endDate: string;
  type?: 'default' | 'capacity-block';
}

/** One call as the fake saw it. */
export interface Ec2Call {
  action: string;
  /** The decoded form body, e.g. `{ Action, Version, 'InstanceId.1', DryRun }`. */
  params: Record<string, string>;
  instanceIds: string[];
  /** DescribeInstances filters: name → values. */
  filters: Record<string, string[]>;
  dryRun: boolean;
  /** From the SigV4 Authorization header's credential scope. */
  accessKeyId: string | undefined;
  region: string | undefined;
  service: string | undefined;
  /** HTTP status of the answer: 200 when the call did what it asked. */
  status: number;
}

export interface FakeEc2Options {
  instances?: readonly FakeEc2Instance[];
  /** Instances per DescribeInstances answer before it hands out a nextToken (EC2 paginates large answers). */
  describePageSize?: number;
  /** Launch templates for spot migrations (see fake-ec2-launch-templates.ts). */
  launchTemplates?: readonly FakeLaunchTemplate[];
  capacityReservations?: readonly FakeCapacityReservation[];
}

const ACTIONS = ['DescribeInstances', 'StopInstances', 'DescribeCapacityReservations', ...LAUNCH_TEMPLATE_ACTIONS] as const;
type Ec2Action = (typeof ACTIONS)[number];
const VERSION = '2016-11-15';
const XMLNS = `http://ec2.amazonaws.com/doc/${VERSION}/`;
const STATE_CODES: Record<Ec2StateName, number> = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
  stopping: 64,
  stopped: 80,
};
const ACCOUNT = '123456789012';
/** The DescribeInstances filters the fake understands, and how each matches an instance. */
const FILTERS: Record<string, (i: StoredInstance) => string> = {
  'instance-type': (i) => i.instanceType,
  'instance-state-name': (i) => i.state,
};

type StoredInstance = FakeEc2Instance & { tags: Record<string, string>; instanceType: string };

/**
 * EC2 on 127.0.0.1 for tests, speaking the wire protocol of @aws-sdk/client-ec2 (3.1164.0): the
 * EC2 query protocol, i.e. `POST /` with a form-encoded body (`Action=DescribeInstances&Version=
 * 2016-11-15&InstanceId.1=...`), SigV4 for service "ec2", XML answers in EC2's shape and errors as
 * `<Response><Errors><Error><Code/><Message/></Error></Errors><RequestID/></Response>`.
 * DescribeInstances and StopInstances honour `DryRun=true` (DryRunOperation, 412, when allowed).
 * DescribeInstances filters by `instance-type` and `instance-state-name`, with EC2's `*` and `?` wildcards (any other filter is
 * unexpected); an instance given a region exists only for requests signed for that region.
 * A permission can be denied (UnauthorizedOperation, 403) and the next N calls throttled
 * (RequestLimitExceeded, 503). StopInstances moves a running instance to "stopping", as EC2 does;
 * `settle()` finishes the transition. Launch templates answer DescribeLaunchTemplateVersions,
 * CreateLaunchTemplateVersion and ModifyLaunchTemplate. Every call is recorded; anything else
 * fails `assertNoUnexpectedCalls()`.
 */
export class FakeEc2 {
  readonly calls: Ec2Call[] = [];
  readonly unexpected: string[] = [];
  private readonly instances = new Map<string, StoredInstance>();
  private readonly denied = new Set<string>();
  private throttled = 0;
  /** The launch templates as they are now (after any migration or revert). */
  readonly launchTemplates: FakeLaunchTemplates;

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly options: FakeEc2Options,
  ) {
    for (const i of options.instances ?? [])
      this.instances.set(i.id, { ...i, tags: { ...i.tags }, instanceType: i.instanceType ?? 'g5.xlarge' });
    this.launchTemplates = new FakeLaunchTemplates(options.launchTemplates ?? []);
  }

  static async start(options: FakeEc2Options = {}): Promise<FakeEc2> {
    let fake: FakeEc2 | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeEc2(server, `http://127.0.0.1:${port}`, options);
    return fake;
  }

  callsOf(action: Ec2Action, filter: { dryRun?: boolean; succeeded?: boolean } = {}): Ec2Call[] {
    return this.calls.filter(
      (c) =>
        c.action === action &&
        (filter.dryRun === undefined || c.dryRun === filter.dryRun) &&
        (filter.succeeded === undefined || (c.status === 200) === filter.succeeded),
    );
  }

  /** The caller lacks this permission from now on, e.g. `ec2:StopInstances`. */
  deny(permission: `ec2:${Ec2Action}`): void {
    this.denied.add(permission);
  }

  /** The caller has this permission again, e.g. after a denied `ec2:DescribeInstances`. */
  allow(permission: `ec2:${Ec2Action}`): void {
    this.denied.delete(permission);
  }

  /** The next `times` calls, of any action, answer RequestLimitExceeded. */
  throttleNext(times: number): void {
    this.throttled += times;
  }

  stateOf(id: string): Ec2StateName | undefined {
    return this.instances.get(id)?.state;
  }

  /** Instances that are stopping finish stopping. */
  settle(): void {
    for (const i of this.instances.values()) if (i.state === 'stopping') i.state = 'stopped';
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`FakeEc2 got unexpected calls:\n${this.unexpected.join('\n')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const params = Object.fromEntries(new URLSearchParams(body));
    const action = params.Action ?? '';
    const scope = sigV4Scope(req);
    const instanceIds = Object.keys(params)
      .filter((k) => /^InstanceId\.\d+$/.test(k))
      .sort((a, b) => Number(a.slice(11)) - Number(b.slice(11)))
      .map((k) => params[k]!);
    const dryRun = params.DryRun === 'true';
    const call: Ec2Call = {
      action,
      params,
      instanceIds,
      filters: filtersOf(params),
      dryRun,
      accessKeyId: scope.accessKeyId,
      region: scope.region,
      service: scope.service,
      status: 0,
    };
    this.calls.push(call);
    this.answer(req, res, call);
    call.status = res.statusCode;
  }

  private answer(req: IncomingMessage, res: ServerResponse, { action, params, instanceIds, filters, dryRun }: Ec2Call): void {
    const scope = sigV4Scope(req);

    const problem =
      req.method !== 'POST' || req.url !== '/'
        ? `${req.method} ${req.url}`
        : !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')
          ? `content-type ${req.headers['content-type']}`
          : scope.service !== 'ec2'
            ? 'request not signed with SigV4 for "ec2"'
            : params.Version !== VERSION
              ? `Version ${params.Version}`
              : !(ACTIONS as readonly string[]).includes(action)
                ? `action ${action || '(none)'}`
                : action === 'StopInstances' && instanceIds.length === 0
                  ? 'StopInstances without InstanceId'
                  : Object.keys(filters).find((name) => !(name in FILTERS))
                    ? `filter ${Object.keys(filters).find((name) => !(name in FILTERS))}`
                    : undefined;
    if (problem) {
      this.unexpected.push(`${action || '(no action)'}: ${problem}`);
      return sendError(res, 400, 'InvalidAction', `Unexpected request: ${problem}`);
    }
    if (this.throttled > 0) {
      this.throttled--;
      return sendError(res, 503, 'RequestLimitExceeded', 'Request limit exceeded.');
    }
    const permission = `ec2:${action}`;
    if (this.denied.has(permission)) {
      const resource = action === 'StopInstances' ? ` on resource: arn:aws:ec2:${scope.region}:${ACCOUNT}:instance/${instanceIds[0]}` : '';
      return sendError(
        res,
        403,
        'UnauthorizedOperation',
        `You are not authorized to perform this operation. User: arn:aws:iam::${ACCOUNT}:user/burnrate is not authorized to perform: ${permission}${resource} because no identity-based policy allows the ${permission} action. Encoded authorization failure message: ${Buffer.from(randomUUID()).toString('base64')}`,
      );
    }
    const malformed = instanceIds.find((id) => !/^i-([0-9a-f]{8}|[0-9a-f]{17})$/.test(id));
    if (malformed) return sendError(res, 400, 'InvalidInstanceID.Malformed', `Invalid id: "${malformed}"`);
    // An instance of another region does not exist for this request, as in EC2.
    const visible = (i: StoredInstance | undefined) => i !== undefined && (i.region === undefined || i.region === scope.region);
    const missing = instanceIds.filter((id) => !visible(this.instances.get(id)));
    if (missing.length === 1) return sendError(res, 400, 'InvalidInstanceID.NotFound', `The instance ID '${missing[0]}' does not exist`);
    if (missing.length > 1)
      return sendError(res, 400, 'InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
    if ((LAUNCH_TEMPLATE_ACTIONS as readonly string[]).includes(action)) {
      // EC2 checks the template before the dry-run flag: a dry run on a missing template fails as NotFound.
      const probe = dryRun
        ? this.launchTemplates.answer('DescribeLaunchTemplateVersions', { LaunchTemplateId: params.LaunchTemplateId ?? '' }, XMLNS)
        : this.launchTemplates.answer(action, params, XMLNS);
      if ('code' in probe) return sendError(res, probe.status, probe.code, probe.message);
      if (dryRun) return sendError(res, 412, 'DryRunOperation', 'Request would have succeeded, but DryRun flag is set.');
      return sendXml(res, probe.xml);
    }
    if (dryRun) return sendError(res, 412, 'DryRunOperation', 'Request would have succeeded, but DryRun flag is set.');
    if (action === 'DescribeCapacityReservations') return this.describeCapacityReservations(params, scope.region, res);
    if (action === 'DescribeInstances') {
      const candidates =
        instanceIds.length > 0 ? instanceIds.map((id) => this.instances.get(id)!) : [...this.instances.values()].filter(visible);
      const matching = candidates.filter((i) =>
        Object.entries(filters).every(([name, values]) => values.some((v) => wildcard(v, FILTERS[name]!(i)))),
      );
      return this.describeInstances(matching, params.NextToken, res);
    }
    return this.stopInstances(instanceIds, res);
  }

  private describeInstances(all: StoredInstance[], nextToken: string | undefined, res: ServerResponse): void {
    const offset = nextToken ? Number(Buffer.from(nextToken, 'base64').toString('utf8')) : 0;
    const size = this.options.describePageSize ?? 1000;
    const page = all.slice(offset, offset + size);
    const next = offset + size < all.length ? Buffer.from(String(offset + size)).toString('base64') : undefined;
    // One reservation per instance, as when each was launched on its own.
    const reservations = page.map(
      (i, n) =>
        `<item><reservationId>r-${String(offset + n).padStart(17, '0')}</reservationId><ownerId>${ACCOUNT}</ownerId><groupSet/>` +
        `<instancesSet><item><instanceId>${i.id}</instanceId><imageId>ami-0abcdef1234567890</imageId>` +
        `${stateXml('instanceState', i.state)}<instanceType>${i.instanceType}</instanceType>` +
        (i.privateDnsName ? `<privateDnsName>${i.privateDnsName}</privateDnsName>` : '') +
        (i.privateIp ? `<privateIpAddress>${i.privateIp}</privateIpAddress>` : '') +
        (i.lifecycle ? `<instanceLifecycle>${i.lifecycle}</instanceLifecycle>` : '') +
        (i.capacityReservationId ? `<capacityReservationId>${i.capacityReservationId}</capacityReservationId>` : '') +
        `<tagSet>${Object.entries(i.tags)
          .map(([k, v]) => `<item><key>${escapeXml(k)}</key><value>${escapeXml(v)}</value></item>`)
          .join('')}</tagSet></item></instancesSet></item>`,
    );
    sendXml(
      res,
      `<DescribeInstancesResponse xmlns="${XMLNS}"><requestId>${randomUUID()}</requestId>` +
        `<reservationSet>${reservations.join('')}</reservationSet>${next ? `<nextToken>${next}</nextToken>` : ''}</DescribeInstancesResponse>`,
    );
  }

  /** The reservations asked for by id (`CapacityReservationId.N`), of the request's region; an unknown id fails the call, as in EC2. */
  private describeCapacityReservations(params: Record<string, string>, region: string | undefined, res: ServerResponse): void {
    const ids = Object.keys(params)
      .filter((k) => /^CapacityReservationId\.\d+$/.test(k))
      .map((k) => params[k]!);
    const known = (this.options.capacityReservations ?? []).filter((r) => r.region === region);
    const unknown = ids.find((id) => !known.some((r) => r.id === id));
    if (unknown)
      return sendError(res, 400, 'InvalidCapacityReservationId.NotFound', `The capacity reservation ID '${unknown}' does not exist`);
    const items = known
      .filter((r) => ids.length === 0 || ids.includes(r.id))
      .map(
        (r) =>
          `<item><capacityReservationId>${r.id}</capacityReservationId><instanceType>${r.instanceType}</instanceType>` +
          `<endDate>${r.endDate}</endDate><endDateType>limited</endDateType><state>active</state>` +
          `<reservationType>${r.type ?? 'default'}</reservationType></item>`,
      );
    sendXml(
      res,
      `<DescribeCapacityReservationsResponse xmlns="${XMLNS}"><requestId>${randomUUID()}</requestId>` +
        `<capacityReservationSet>${items.join('')}</capacityReservationSet></DescribeCapacityReservationsResponse>`,
    );
  }

  private stopInstances(ids: string[], res: ServerResponse): void {
    const items = ids.map((id) => {
      const instance = this.instances.get(id)!;
      const previous = instance.state;
      if (previous === 'running' || previous === 'pending') instance.state = 'stopping';
      return `<item><instanceId>${id}</instanceId>${stateXml('currentState', instance.state)}${stateXml('previousState', previous)}</item>`;
    });
    sendXml(
      res,
      `<StopInstancesResponse xmlns="${XMLNS}"><requestId>${randomUUID()}</requestId><instancesSet>${items.join('')}</instancesSet></StopInstancesResponse>`,
    );
  }
}

/** Whether a filter value matches, as EC2 matches them: `*` any run of characters, `?` one character. */
function wildcard(pattern: string, value: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`).test(value);
}

/** `Filter.1.Name=instance-type&Filter.1.Value.1=g5.xlarge&...` → { 'instance-type': ['g5.xlarge', ...] } */
function filtersOf(params: Record<string, string>): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const [key, name] of Object.entries(params)) {
    const n = /^Filter\.(\d+)\.Name$/.exec(key)?.[1];
    if (n === undefined) continue;
    filters[name] = Object.keys(params)
      .filter((k) => k.startsWith(`Filter.${n}.Value.`))
      .map((k) => params[k]!);
  }
  return filters;
}

function stateXml(element: string, state: Ec2StateName): string {
  return `<${element}><code>${STATE_CODES[state]}</code><name>${state}</name></${element}>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function sendXml(res: ServerResponse, xml: string): void {
  res.writeHead(200, { 'content-type': 'text/xml;charset=UTF-8' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`);
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'text/xml;charset=UTF-8' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error></Errors><RequestID>${randomUUID()}</RequestID></Response>`,
  );
}
