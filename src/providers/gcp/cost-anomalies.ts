import { GoogleAuth } from 'google-auth-library';
import type { ProviderAnomaly, ProviderRootCause } from '../../domain/provider-anomaly.js';
import { addDays } from '../../domain/period.js';
import { explainGoogleError } from './gcp-errors.js';
import { ANOMALIES_LIST } from './gcp-permissions.js';
import type { GoogleEndpoint } from './google-endpoint.js';

/** Cloud Billing API v1beta: a billing account's or a project's anomalies (get and list; no feedback method). */
const CLOUD_BILLING = 'https://cloudbilling.googleapis.com';
const SCOPE = 'https://www.googleapis.com/auth/cloud-billing.readonly';
/** The most a page holds (the API's maximum). */
const PAGE_SIZE = 1000;

/** google.type.Money as the REST API writes it: units as a string (int64), nanos as a number. */
interface Money {
  currencyCode?: string;
  units?: string;
  nanos?: number;
}

interface Deviation {
  actualSpend?: Money;
  expectedSpend?: Money;
  deviationAmount?: Money;
  deviationPercentage?: number;
}

interface Cause {
  causeType?: string;
  displayName?: string;
  /** `projects/{project}`, `services/{service}`, `services/{service}/skus/{sku}`. */
  resource?: string;
  deviation?: Deviation;
  subCauses?: Cause[];
}

/** GoogleCloudBillingAnomaliesV1betaAnomaly. */
export interface GoogleAnomaly {
  name?: string;
  /** 00:00 Pacific time of the day the anomaly was found on. */
  detectionTime?: string;
  deviation?: Deviation;
  resourceDisplayName?: string;
  rootCauses?: Cause[];
  scope?: string;
  severity?: string;
  updateTime?: string;
}

interface Requester {
  request<T>(options: { url: string; method: 'GET' }): Promise<{ data: T }>;
}

/**
 * Google Cloud's cost anomalies of one billing account or project (`parent`), through the Cloud
 * Billing API's REST surface with google-auth-library (Application Default Credentials, or the
 * endpoint's auth client). Google's API takes no feedback: there is no method to send an answer.
 */
export class GoogleCostAnomalies {
  private readonly base: string;
  private client: Requester | undefined;

  constructor(
    private readonly parent: string,
    private readonly endpoint: GoogleEndpoint,
  ) {
    this.base = (endpoint.url?.toString() ?? CLOUD_BILLING).replace(/\/$/, '');
  }

  /** The anomalies found on days in [start, end) (YYYY-MM-DD), every page. */
  async list(start: string, end: string): Promise<ProviderAnomaly[]> {
    const filter = `start_time = "${start.replace(/-/g, '')}" AND end_time = "${addDays(end, -1).replace(/-/g, '')}"`;
    const out: ProviderAnomaly[] = [];
    let token = '';
    try {
      do {
        const query = new URLSearchParams({ filter, pageSize: String(PAGE_SIZE), ...(token ? { pageToken: token } : {}) });
        const { data } = await this.requester().request<{ anomalies?: GoogleAnomaly[]; nextPageToken?: string }>({
          url: `${this.base}/v1beta/${this.parent}/anomalies?${query}`,
          method: 'GET',
        });
        out.push(...(data.anomalies ?? []).flatMap((a) => toProviderAnomaly(a, this.parent)));
        token = data.nextPageToken ?? '';
      } while (token);
    } catch (error) {
      throw explainGoogleError(error, {
        service: 'Cloud Billing anomalies',
        permission: ANOMALIES_LIST.permission,
        role: ANOMALIES_LIST.role,
        resource: this.parent,
      });
    }
    return out;
  }

  private requester(): Requester {
    return (this.client ??= (this.endpoint.authClient as Requester | undefined) ?? new GoogleAuth({ scopes: [SCOPE] }));
  }
}

/** An amount of google.type.Money as a number (units and nanos). */
function amountOf(money: Money | undefined): number | null {
  if (!money) return null;
  return Number(money.units ?? 0) + (money.nanos ?? 0) / 1e9;
}

/**
 * Google's anomaly as burnrate shows it: one day (the day it was found on), its deviation as the
 * impact, its causes (project, service, SKU, and their sub-causes) as root causes. Null-free: an
 * anomaly without a name or a day is left out.
 */
export function toProviderAnomaly(a: GoogleAnomaly, parent: string): ProviderAnomaly[] {
  const day = a.detectionTime?.slice(0, 10);
  if (!a.name || !day) return [];
  const actual = amountOf(a.deviation?.actualSpend);
  const expected = amountOf(a.deviation?.expectedSpend);
  return [
    {
      provider: 'gcp',
      id: a.name,
      monitor: parent,
      start: day,
      end: day,
      impact: amountOf(a.deviation?.deviationAmount) ?? (actual ?? 0) - (expected ?? 0),
      actual,
      expected,
      currency: a.deviation?.actualSpend?.currencyCode ?? a.deviation?.deviationAmount?.currencyCode ?? 'USD',
      score: null,
      rootCauses: (a.rootCauses ?? []).flatMap(causesOf).sort((x, y) => (y.contribution ?? 0) - (x.contribution ?? 0)),
      feedback: null,
    },
  ];
}

/** A cause and its sub-causes, each named by what its resource is (a project, a service, a SKU). */
function causesOf(cause: Cause): ProviderRootCause[] {
  const resource = cause.resource ?? '';
  const name = cause.displayName ?? resource;
  const root: ProviderRootCause = {
    service: /^services\/[^/]+$/.test(resource) ? name : null,
    region: /region|location/i.test(cause.causeType ?? '') ? name : null,
    account: resource.startsWith('projects/') ? name : null,
    usageType: /^services\/[^/]+\/skus\//.test(resource) ? name : null,
    contribution: amountOf(cause.deviation?.deviationAmount),
  };
  const named = root.service ?? root.region ?? root.account ?? root.usageType;
  return [...(named ? [root] : []), ...(cause.subCauses ?? []).flatMap(causesOf)];
}
