import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody, sigV4Scope } from './http-body.js';
import { sendAwsJson, sendAwsJsonError } from './aws-json-protocol.js';

/** Idle shutdown as a domain sets it for one app type (SageMaker's IdleSettings). */
export interface FakeIdleSettings {
  LifecycleManagement?: 'ENABLED' | 'DISABLED';
  IdleTimeoutInMinutes?: number;
  MinIdleTimeoutInMinutes?: number;
  MaxIdleTimeoutInMinutes?: number;
}

export interface FakeStudioDomain {
  id: string;
  region: string;
  /** The domain's default idle shutdown for its users' JupyterLab and Code Editor apps; absent: none set. */
  jupyterLab?: FakeIdleSettings;
  codeEditor?: FakeIdleSettings;
}

export interface FakeStudioSpace {
  domainId: string;
  name: string;
  /** The space's own idle timeout for its JupyterLab (or Code Editor) apps. */
  idleTimeoutInMinutes?: number;
  tags?: Record<string, string>;
}

export interface FakeStudioApp {
  domainId: string;
  /** A space's app (JupyterLab, Code Editor); a Studio Classic app names a user profile instead. */
  space?: string;
  userProfile?: string;
  type: 'JupyterLab' | 'CodeEditor' | 'KernelGateway' | 'JupyterServer';
  name?: string;
  status?: 'InService' | 'Pending' | 'Deleting' | 'Deleted' | 'Failed';
  instanceType: string;
  created: string;
  lastUserActivity?: string;
  tags?: Record<string, string>;
}

/** One call as the fake saw it; `input` is the decoded JSON body. */
export interface SageMakerCall {
  operation: string;
  input: any;
  region: string | undefined;
}

const OPERATIONS = ['ListDomains', 'DescribeDomain', 'ListApps', 'DescribeApp', 'DescribeSpace', 'ListTags', 'DeleteApp'] as const;
export type SageMakerOperation = (typeof OPERATIONS)[number];

const ACCOUNT = '123456789012';

/**
 * SageMaker on 127.0.0.1 for tests, speaking the wire protocol of the pinned
 * @aws-sdk/client-sagemaker: awsJson1_1, i.e. `POST /` with `Content-Type:
 * application/x-amz-json-1.1`, `X-Amz-Target: SageMaker.<Operation>`, JSON bodies with timestamps
 * as epoch seconds, errors as `{"__type", "message"}` (ResourceNotFound, AccessDeniedException).
 * Lists page with NextToken at `pageSize` (or the request's MaxResults, if smaller). An operation
 * can be denied. Every call is recorded; an unknown operation or a malformed request fails
 * `assertNoUnexpectedCalls()`.
 */
export class FakeSageMaker {
  readonly calls: SageMakerCall[] = [];
  readonly unexpected: string[] = [];
  readonly denied = new Set<SageMakerOperation>();

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly domains: FakeStudioDomain[],
    private readonly spaces: FakeStudioSpace[],
    readonly apps: FakeStudioApp[],
    private readonly pageSize: number,
  ) {}

  static async start(options: {
    domains: FakeStudioDomain[];
    spaces?: FakeStudioSpace[];
    apps?: FakeStudioApp[];
    pageSize?: number;
  }): Promise<FakeSageMaker> {
    let fake: FakeSageMaker | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeSageMaker(
      server,
      `http://127.0.0.1:${port}`,
      options.domains,
      options.spaces ?? [],
      options.apps ?? [],
      options.pageSize ?? 50,
    );
    return fake;
  }

  /** The ARN SageMaker gives the app: its space (or user profile) and its type in lower case. */
  arnOf(app: FakeStudioApp): string {
    const region = this.domains.find((d) => d.id === app.domainId)?.region ?? 'us-east-1';
    return `arn:aws:sagemaker:${region}:${ACCOUNT}:app/${app.domainId}/${app.space ?? app.userProfile}/${app.type.toLowerCase()}/${app.name ?? 'default'}`;
  }

  callsOf(operation: SageMakerOperation): SageMakerCall[] {
    return this.calls.filter((c) => c.operation === operation);
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`FakeSageMaker got unexpected calls:\n${this.unexpected.join('\n')}`);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith('SageMaker.') ? target.slice('SageMaker.'.length) : '';
    const problem =
      req.method !== 'POST' || req.url !== '/'
        ? `${req.method} ${req.url}`
        : req.headers['content-type'] !== 'application/x-amz-json-1.1'
          ? `content-type ${req.headers['content-type']}`
          : !(OPERATIONS as readonly string[]).includes(operation)
            ? `unknown target ${target}`
            : undefined;
    if (problem) {
      this.unexpected.push(`${operation || '(no target)'}: ${problem}`);
      sendAwsJsonError(res, '1.1', { status: 400, type: 'UnknownOperationException', message: problem });
      return;
    }
    const input = JSON.parse(body || '{}');
    const region = sigV4Scope(req).region;
    this.calls.push({ operation, input, region });
    if (this.denied.has(operation as SageMakerOperation)) {
      sendAwsJsonError(res, '1.1', {
        status: 400,
        type: 'AccessDeniedException',
        message: `User: arn:aws:sts::${ACCOUNT}:assumed-role/burnrate/x is not authorized to perform: sagemaker:${operation}`,
      });
      return;
    }
    const answer = this.answer(operation as SageMakerOperation, input, region);
    if ('notFound' in answer) sendAwsJsonError(res, '1.1', { status: 400, type: 'ResourceNotFound', message: answer.notFound });
    else sendAwsJson(res, '1.1', answer.body);
  }

  private answer(operation: SageMakerOperation, input: any, region: string | undefined): { body: unknown } | { notFound: string } {
    const domainsHere = this.domains.filter((d) => d.region === region);
    switch (operation) {
      case 'ListDomains':
        return {
          body: this.page(
            domainsHere.map((d) => ({ DomainId: d.id, DomainName: d.id, Status: 'InService' })),
            input,
            'Domains',
          ),
        };
      case 'DescribeDomain': {
        const domain = domainsHere.find((d) => d.id === input.DomainId);
        if (!domain) return { notFound: `Domain ${input.DomainId} not found` };
        const lifecycle = (settings?: FakeIdleSettings) => (settings ? { AppLifecycleManagement: { IdleSettings: settings } } : {});
        return {
          body: {
            DomainId: domain.id,
            Status: 'InService',
            DefaultUserSettings: {
              JupyterLabAppSettings: lifecycle(domain.jupyterLab),
              CodeEditorAppSettings: lifecycle(domain.codeEditor),
            },
          },
        };
      }
      case 'ListApps': {
        const apps = this.apps.filter((a) => a.domainId === input.DomainIdEquals && domainsHere.some((d) => d.id === a.domainId));
        return {
          body: this.page(
            apps.map((a) => this.details(a)),
            input,
            'Apps',
          ),
        };
      }
      case 'DescribeApp': {
        const app = this.appOf(input);
        if (!app) return { notFound: `App ${input.AppName} does not exist` };
        return {
          body: {
            ...this.details(app),
            AppArn: this.arnOf(app),
            ...(app.lastUserActivity ? { LastUserActivityTimestamp: Date.parse(app.lastUserActivity) / 1000 } : {}),
            LastHealthCheckTimestamp: Date.parse(app.created) / 1000,
          },
        };
      }
      case 'DescribeSpace': {
        const space = this.spaces.find((s) => s.domainId === input.DomainId && s.name === input.SpaceName);
        if (!space) return { notFound: `Space ${input.SpaceName} does not exist` };
        const idle =
          space.idleTimeoutInMinutes !== undefined
            ? { AppLifecycleManagement: { IdleSettings: { IdleTimeoutInMinutes: space.idleTimeoutInMinutes } } }
            : {};
        return {
          body: {
            DomainId: space.domainId,
            SpaceName: space.name,
            SpaceArn: `arn:aws:sagemaker:${region}:${ACCOUNT}:space/${space.domainId}/${space.name}`,
            Status: 'InService',
            SpaceSettings: { JupyterLabAppSettings: idle, CodeEditorAppSettings: idle },
          },
        };
      }
      case 'ListTags': {
        const arn = String(input.ResourceArn);
        const space = this.spaces.find((s) => arn.endsWith(`:space/${s.domainId}/${s.name}`));
        const app = this.apps.find((a) => this.arnOf(a) === arn);
        const tags = Object.entries((space ?? app)?.tags ?? {}).map(([Key, Value]) => ({ Key, Value }));
        return { body: this.page(tags, input, 'Tags') };
      }
      case 'DeleteApp': {
        const app = this.appOf(input);
        if (!app || app.status === 'Deleted') return { notFound: `App ${input.AppName} does not exist` };
        app.status = 'Deleting';
        return { body: {} };
      }
    }
  }

  /** The app a DescribeApp or DeleteApp names: its domain, type, name, and space or user profile. */
  private appOf(input: any): FakeStudioApp | undefined {
    return this.apps.find(
      (a) =>
        a.domainId === input.DomainId &&
        a.type === input.AppType &&
        (a.name ?? 'default') === input.AppName &&
        (input.SpaceName !== undefined ? a.space === input.SpaceName : a.userProfile === input.UserProfileName),
    );
  }

  private details(app: FakeStudioApp): object {
    return {
      DomainId: app.domainId,
      ...(app.space ? { SpaceName: app.space } : { UserProfileName: app.userProfile }),
      AppType: app.type,
      AppName: app.name ?? 'default',
      Status: app.status ?? 'InService',
      CreationTime: Date.parse(app.created) / 1000,
      ResourceSpec: { InstanceType: app.instanceType },
    };
  }

  /** One page of a list, from the request's NextToken (an offset here), at most pageSize or MaxResults long. */
  private page<T>(items: readonly T[], input: any, key: string): object {
    const start = input.NextToken ? Number(input.NextToken) : 0;
    const size = Math.min(this.pageSize, input.MaxResults ?? Infinity);
    const end = start + size;
    return { [key]: items.slice(start, end), ...(end < items.length ? { NextToken: String(end) } : {}) };
  }
}
