import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sigV4Scope } from './http-body.js';
import { sendAwsJson, sendAwsJsonError } from './aws-json-protocol.js';

/** One day's cost of one tag value and service in one account, as Cost Explorer would sum it. */
export interface FakeCostLine {
  /** The account whose credentials see it: a role's account id, or 'default' for the base credentials. */
  account?: string;
  day: string;
  /** The ownership tag's value; null: untagged. */
  tag: string | null;
  service: string;
  /** Cost Explorer's RECORD_TYPE: Usage (default), Tax, Support, Credit, SavingsPlanRecurringFee... */
  recordType?: string;
  unblended: number;
  amortized?: number;
}

/** A budget as DescribeBudgets returns it (JSON 1.1 shape), with its notifications. */
export interface FakeBudget {
  accountId: string;
  budget: Record<string, unknown> & { BudgetName: string };
  notifications?: Record<string, unknown>[];
}

export interface AwsBillingCall {
  operation: string;
  input: any;
  accessKeyId?: string | undefined;
  region?: string | undefined;
  service?: string | undefined;
}

/** QuotesCredentials: an IncompleteSignatureException whose message quotes the request's Authorization header, key id and all. */
export type AwsFailure = 'AccessDenied' | 'Throttling' | 'InternalError' | 'QuotesCredentials';

export interface FakeAwsBillingOptions {
  costs?: readonly FakeCostLine[];
  budgets?: readonly FakeBudget[];
  /** The ownership tag key Cost Explorer is expected to group by. */
  tagKey?: string;
  /** Days of results per GetCostAndUsage page before NextPageToken. */
  daysPerPage?: number;
  /** Budgets (and notifications) per page, at most the request's MaxResults. */
  budgetsPerPage?: number;
  /** Cost Anomaly Detection's anomalies, as GetAnomalies returns them (Feedback set by ProvideAnomalyFeedback). */
  anomalies?: Record<string, unknown>[];
  /** Anomalies per GetAnomalies page, at most the request's MaxResults. */
  anomaliesPerPage?: number;
}

const TARGETS: Record<string, { service: string; operation: string }> = {
  'AWSInsightsIndexService.GetCostAndUsage': { service: 'ce', operation: 'GetCostAndUsage' },
  'AWSInsightsIndexService.GetAnomalies': { service: 'ce', operation: 'GetAnomalies' },
  'AWSInsightsIndexService.ProvideAnomalyFeedback': { service: 'ce', operation: 'ProvideAnomalyFeedback' },
  'AWSBudgetServiceGateway.DescribeBudgets': { service: 'budgets', operation: 'DescribeBudgets' },
  'AWSBudgetServiceGateway.DescribeNotificationsForBudget': { service: 'budgets', operation: 'DescribeNotificationsForBudget' },
};
type Operation =
  | 'GetCostAndUsage'
  | 'GetAnomalies'
  | 'ProvideAnomalyFeedback'
  | 'DescribeBudgets'
  | 'DescribeNotificationsForBudget'
  | 'AssumeRole';

/**
 * Cost Explorer, AWS Budgets and STS on 127.0.0.1 for tests, one endpoint for all three (point
 * AWS_ENDPOINT_URL at it). Cost Explorer and Budgets speak awsJson1_1 (`X-Amz-Target:
 * AWSInsightsIndexService.<Op>` / `AWSBudgetServiceGateway.<Op>`, errors as `{"__type", "message"}`);
 * STS speaks the query protocol (form body `Action=AssumeRole`, XML answers). Every request must be
 * SigV4-signed for its service. Assumed roles get session keys that the fake maps back to the role's
 * account, so Cost Explorer answers each account with its own costs. Failures can be injected per
 * operation, or every key rejected (a broken credential). Calls are recorded; anything unexpected
 * fails `assertNoUnexpectedCalls()`.
 */
export class FakeAwsBilling {
  readonly calls: AwsBillingCall[] = [];
  readonly unexpected: string[] = [];
  private readonly failures = new Map<Operation, AwsFailure[]>();
  private readonly sessions = new Map<string, string>();
  private brokenKeys = false;

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly options: FakeAwsBillingOptions,
  ) {}

  static async start(options: FakeAwsBillingOptions = {}): Promise<FakeAwsBilling> {
    let fake: FakeAwsBilling | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeAwsBilling(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    return fake;
  }

  /** Replaces the stored costs (a day revised, a new day billed). */
  setCosts(costs: readonly FakeCostLine[]): void {
    (this.options as { costs?: readonly FakeCostLine[] }).costs = costs;
  }

  callsOf(operation: Operation): AwsBillingCall[] {
    return this.calls.filter((c) => c.operation === operation);
  }

  failNext(operation: Operation, failure: AwsFailure, times = 1): void {
    const queue = this.failures.get(operation) ?? [];
    for (let i = 0; i < times; i++) queue.push(failure);
    this.failures.set(operation, queue);
  }

  /** Every request is refused as signed with an unknown key (a revoked or rotated access key). */
  breakCredentials(broken = true): void {
    this.brokenKeys = broken;
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`FakeAwsBilling got unexpected calls:\n${this.unexpected.join('\n')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const scope = sigV4Scope(req);
    const target = String(req.headers['x-amz-target'] ?? '');
    if (!target && String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return this.handleSts(body, scope, res);
    const known = TARGETS[target];
    let input: any;
    try {
      input = body ? JSON.parse(body) : {};
    } catch {
      input = undefined;
    }
    const operation = known?.operation ?? target;
    this.calls.push({ operation, input, ...scope });
    const problem =
      req.method !== 'POST' || req.url !== '/'
        ? `${req.method} ${req.url}`
        : !known
          ? `target ${target}`
          : req.headers['content-type'] !== 'application/x-amz-json-1.1'
            ? `content-type ${req.headers['content-type']}`
            : scope.service !== known.service || scope.region !== 'us-east-1'
              ? `signed for ${scope.service}/${scope.region}, expected ${known.service}/us-east-1`
              : input === undefined
                ? 'body is not JSON'
                : undefined;
    if (problem) {
      this.unexpected.push(`${operation || '(no target)'}: ${problem}`);
      return sendJsonError(res, 400, 'UnknownOperationException', 'Unexpected request');
    }
    if (this.brokenKeys)
      return sendJsonError(res, 400, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    const failure = this.failures.get(operation as Operation)?.shift();
    if (failure === 'AccessDenied') {
      const action = known!.service === 'ce' ? `ce:${operation}` : 'budgets:ViewBudget';
      return sendJsonError(
        res,
        400,
        'AccessDeniedException',
        `User: arn:aws:iam::123456789012:user/burnrate is not authorized to perform: ${action} on resource: *`,
      );
    }
    if (failure === 'Throttling')
      return sendJsonError(res, 400, known!.service === 'ce' ? 'LimitExceededException' : 'ThrottlingException', 'Rate exceeded');
    if (failure === 'InternalError')
      return sendJsonError(res, 500, 'InternalErrorException', 'We encountered an internal error. Please try again.');
    if (failure === 'QuotesCredentials')
      return sendJsonError(
        res,
        400,
        'IncompleteSignatureException',
        `Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=${String(req.headers.authorization)}`,
      );
    const account = this.sessions.get(scope.accessKeyId ?? '') ?? 'default';
    if (operation === 'GetCostAndUsage') return this.getCostAndUsage(input, account, res);
    if (operation === 'GetAnomalies') return this.getAnomalies(input, res);
    if (operation === 'ProvideAnomalyFeedback') return this.provideAnomalyFeedback(input, res);
    if (operation === 'DescribeBudgets') return this.describeBudgets(input, res);
    return this.describeNotifications(input, res);
  }

  /**
   * GetAnomalies as Cost Explorer answers it: DateInterval.StartDate required (YYYY-MM-DD), MaxResults
   * at most 100, anomalies whose start falls in the interval, pages by NextPageToken.
   */
  private getAnomalies(input: any, res: ServerResponse): void {
    const day = /^\d{4}-\d{2}-\d{2}$/;
    const interval = input.DateInterval;
    const invalid =
      !interval || !day.test(interval.StartDate ?? '')
        ? 'DateInterval.StartDate is required (YYYY-MM-DD)'
        : interval.EndDate !== undefined && !day.test(interval.EndDate)
          ? 'DateInterval.EndDate must be YYYY-MM-DD'
          : input.MaxResults !== undefined && (input.MaxResults < 1 || input.MaxResults > 100)
            ? 'MaxResults must be between 1 and 100'
            : undefined;
    if (invalid) {
      this.unexpected.push(`GetAnomalies: ${invalid}`);
      return sendJsonError(res, 400, 'ValidationException', invalid);
    }
    const inRange = (this.options.anomalies ?? []).filter((a: any) => {
      const start = String(a.AnomalyStartDate ?? '').slice(0, 10);
      return (
        start >= interval.StartDate &&
        (!interval.EndDate || start < interval.EndDate) &&
        (!input.MonitorArn || a.MonitorArn === input.MonitorArn)
      );
    });
    const perPage = Math.min(this.options.anomaliesPerPage ?? 100, input.MaxResults ?? 100);
    const offset = input.NextPageToken ? Number(Buffer.from(input.NextPageToken, 'base64').toString()) : 0;
    const next = offset + perPage < inRange.length ? Buffer.from(String(offset + perPage)).toString('base64') : undefined;
    sendJson(res, { Anomalies: inRange.slice(offset, offset + perPage), ...(next ? { NextPageToken: next } : {}) });
  }

  /** ProvideAnomalyFeedback: YES, NO or PLANNED_ACTIVITY on a known anomaly; anything else is refused. */
  private provideAnomalyFeedback(input: any, res: ServerResponse): void {
    if (!['YES', 'NO', 'PLANNED_ACTIVITY'].includes(input.Feedback)) {
      this.unexpected.push(`ProvideAnomalyFeedback: Feedback ${input.Feedback}`);
      return sendJsonError(res, 400, 'ValidationException', `Value '${input.Feedback}' at 'feedback' failed to satisfy constraint`);
    }
    const anomaly = (this.options.anomalies ?? []).find((a: any) => a.AnomalyId === input.AnomalyId);
    if (!anomaly) return sendJsonError(res, 400, 'UnknownMonitorException', `Anomaly ${input.AnomalyId} does not exist`);
    anomaly.Feedback = input.Feedback;
    sendJson(res, { AnomalyId: input.AnomalyId });
  }

  private getCostAndUsage(input: any, account: string, res: ServerResponse): void {
    const invalid = validateCostAndUsage(input, this.options.tagKey ?? 'team');
    if (invalid) {
      this.unexpected.push(`GetCostAndUsage: ${invalid}`);
      return sendJsonError(res, 400, 'ValidationException', invalid);
    }
    const days: string[] = [];
    for (let d = input.TimePeriod.Start; d < input.TimePeriod.End; d = nextDay(d)) days.push(d);
    const perPage = this.options.daysPerPage ?? 90;
    const offset = input.NextPageToken ? Number(Buffer.from(input.NextPageToken, 'base64').toString()) : 0;
    const page = days.slice(offset, offset + perPage);
    const tagKey = input.GroupBy[0].Key;
    const byRecordType = input.GroupBy[1].Key === 'RECORD_TYPE';
    const ResultsByTime = page.map((day) => {
      const groups = new Map<string, { Keys: string[]; unblended: number; amortized: number }>();
      for (const line of this.options.costs ?? []) {
        if (line.day !== day || (line.account ?? 'default') !== account) continue;
        if (!matchesFilter(input.Filter, line.recordType ?? 'Usage')) continue;
        const keys = [`${tagKey}$${line.tag ?? ''}`, byRecordType ? (line.recordType ?? 'Usage') : line.service];
        const group = groups.get(keys.join('|')) ?? { Keys: keys, unblended: 0, amortized: 0 };
        group.unblended += line.unblended;
        group.amortized += line.amortized ?? line.unblended;
        groups.set(keys.join('|'), group);
      }
      return {
        TimePeriod: { Start: day, End: nextDay(day) },
        Total: {},
        Groups: [...groups.values()].map((g) => ({
          Keys: g.Keys,
          Metrics: {
            UnblendedCost: { Amount: String(g.unblended), Unit: 'USD' },
            AmortizedCost: { Amount: String(g.amortized), Unit: 'USD' },
          },
        })),
        Estimated: false,
      };
    });
    const next = offset + perPage < days.length ? Buffer.from(String(offset + perPage)).toString('base64') : undefined;
    sendJson(res, {
      GroupDefinitions: input.GroupBy,
      ResultsByTime,
      DimensionValueAttributes: [],
      ...(next ? { NextPageToken: next } : {}),
    });
  }

  private describeBudgets(input: any, res: ServerResponse): void {
    if (!/^\d{12}$/.test(String(input.AccountId))) {
      this.unexpected.push(`DescribeBudgets: AccountId ${input.AccountId}`);
      return sendJsonError(res, 400, 'InvalidParameterException', 'AccountId must be 12 digits');
    }
    const all = (this.options.budgets ?? []).filter((b) => b.accountId === input.AccountId).map((b) => b.budget);
    sendJson(res, this.page(all, input, 'Budgets'));
  }

  private describeNotifications(input: any, res: ServerResponse): void {
    const found = (this.options.budgets ?? []).find((b) => b.accountId === input.AccountId && b.budget.BudgetName === input.BudgetName);
    if (!found)
      return sendJsonError(res, 400, 'NotFoundException', `Unable to get budget: ${input.BudgetName} - the budget doesn't exist.`);
    sendJson(res, this.page(found.notifications ?? [], input, 'Notifications'));
  }

  private page(items: readonly unknown[], input: any, key: string): Record<string, unknown> {
    const size = Math.min(this.options.budgetsPerPage ?? 100, Number(input.MaxResults ?? 100));
    const offset = input.NextToken ? Number(Buffer.from(input.NextToken, 'base64').toString()) : 0;
    const next = offset + size < items.length ? Buffer.from(String(offset + size)).toString('base64') : undefined;
    return { [key]: items.slice(offset, offset + size), ...(next ? { NextToken: next } : {}) };
  }

  private handleSts(body: string, scope: ReturnType<typeof sigV4Scope>, res: ServerResponse): void {
    const form = new URLSearchParams(body);
    const input = Object.fromEntries(form);
    this.calls.push({ operation: form.get('Action') ?? '(none)', input, ...scope });
    if (form.get('Action') !== 'AssumeRole' || scope.service !== 'sts') {
      this.unexpected.push(`STS ${form.get('Action')} signed for ${scope.service}`);
      return sendXmlError(res, 400, 'InvalidAction', 'Unexpected request');
    }
    if (this.brokenKeys) return sendXmlError(res, 403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
    if (this.failures.get('AssumeRole')?.shift() === 'AccessDenied') {
      return sendXmlError(
        res,
        403,
        'AccessDenied',
        `User: arn:aws:iam::999999999999:user/burnrate is not authorized to perform: sts:AssumeRole on resource: ${form.get('RoleArn')}`,
      );
    }
    const account = String(form.get('RoleArn')).split(':')[4] ?? '';
    const key = `ASIA${account}${this.sessions.size}`;
    this.sessions.set(key, account);
    const expiration = new Date(Date.now() + 3600_000).toISOString();
    res.writeHead(200, { 'content-type': 'text/xml', 'x-amzn-requestid': randomUUID() });
    res.end(
      `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>${key}</AccessKeyId><SecretAccessKey>fake-session-secret</SecretAccessKey><SessionToken>fake-session-token</SessionToken><Expiration>${expiration}</Expiration></Credentials><AssumedRoleUser><Arn>${form.get('RoleArn')}/burnrate</Arn><AssumedRoleId>AROAFAKE:burnrate</AssumedRoleId></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></AssumeRoleResponse>`,
    );
  }
}

function validateCostAndUsage(input: any, tagKey: string): string | undefined {
  const period = input.TimePeriod;
  if (!period || !/^\d{4}-\d{2}-\d{2}$/.test(period.Start ?? '') || !/^\d{4}-\d{2}-\d{2}$/.test(period.End ?? ''))
    return 'TimePeriod must have Start and End as YYYY-MM-DD';
  if (period.Start >= period.End) return 'Start date must be before End date';
  if (input.Granularity !== 'DAILY') return `expected DAILY granularity, got ${input.Granularity}`;
  const metrics = [...(input.Metrics ?? [])].sort().join(',');
  if (metrics !== 'AmortizedCost,UnblendedCost') return `unexpected Metrics ${metrics}`;
  const groups = input.GroupBy ?? [];
  if (
    groups.length !== 2 ||
    groups[0]?.Type !== 'TAG' ||
    groups[0]?.Key !== tagKey ||
    groups[1]?.Type !== 'DIMENSION' ||
    (groups[1]?.Key !== 'SERVICE' && groups[1]?.Key !== 'RECORD_TYPE')
  )
    return `expected GroupBy TAG ${tagKey} then DIMENSION SERVICE or RECORD_TYPE, got ${JSON.stringify(groups)}`;
  if (input.Filter !== undefined && !recordTypeValues(input.Filter)) return `unsupported Filter ${JSON.stringify(input.Filter)}`;
  return undefined;
}

/** The RECORD_TYPE values of a `{ Dimensions }` or `{ Not: { Dimensions } }` filter: all this fake understands. */
function recordTypeValues(filter: any): string[] | undefined {
  const dimensions = filter?.Not?.Dimensions ?? filter?.Dimensions;
  return dimensions?.Key === 'RECORD_TYPE' && Array.isArray(dimensions.Values) ? dimensions.Values : undefined;
}

function matchesFilter(filter: any, recordType: string): boolean {
  if (filter === undefined) return true;
  const listed = recordTypeValues(filter)!.includes(recordType);
  return filter.Not ? !listed : listed;
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function sendJson(res: ServerResponse, body: unknown): void {
  sendAwsJson(res, '1.1', body);
}

function sendJsonError(res: ServerResponse, status: number, type: string, message: string): void {
  sendAwsJsonError(res, '1.1', { status, type, message });
}

function sendXmlError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'text/xml', 'x-amzn-requestid': randomUUID() });
  res.end(
    `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
  );
}
