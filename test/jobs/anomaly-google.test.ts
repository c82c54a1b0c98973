import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anomalyCheck } from '../../src/checks/anomalies/definition.js';
import { configSchema } from '../../src/config/schema.js';
import { runCheck } from '../../src/jobs/run-check.js';
import { buildSources } from '../../src/providers/registry.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { anomalyDetails } from '../../templates/anomaly-alert.js';
import { FakeGoogleAnomalies } from '../fakes/fake-google-anomalies.js';
import { fakeGoogleAuth } from '../fakes/fake-google-cloud.js';
import { CAROL } from '../support/demo-org.js';
import { testDeps } from '../support/deps.js';
import { dispatchClick } from '../support/dispatch-click.js';
import { importRunawayBill, sweepRow } from '../support/runaway-bill.js';

// Google Cloud's cost anomalies in the anomaly check, through google-auth-library against the fake
// speaking the Cloud Billing API's REST shape (v1beta anomalies.list): Google's anomaly shown to the
// project's team, alone or on burnrate's own of the same day; Google's API takes no feedback, so an
// answer is recorded in burnrate and nothing is sent; a failing API holds nothing else up.

const TEAM = { id: 'ml', name: 'ML', owners: [CAROL] };
const PARENT = 'projects/ml-training-prod';
const SOURCE = {
  type: 'gcp',
  project: 'billing-queries',
  table: 'billing-queries.billing.gcp_billing_export_v1_012345_6789AB_CDEF01',
  anomalies: { scopes: [{ parent: PARENT, team: 'ml' }] },
};

const money = (amount: number) => ({
  currencyCode: 'USD',
  units: String(Math.trunc(amount)),
  nanos: Math.round((amount - Math.trunc(amount)) * 1e9),
});

function googleAnomaly(id: string, day: string, actual: number, expected: number) {
  return {
    name: `${PARENT}/anomalies/${id}`,
    detectionTime: `${day}T08:00:00Z`,
    deviation: {
      actualSpend: money(actual),
      expectedSpend: money(expected),
      deviationAmount: money(actual - expected),
      deviationPercentage: ((actual - expected) / expected) * 100,
    },
    resourceDisplayName: 'ml-training-prod',
    scope: 'PROJECT',
    severity: 'HIGH',
    rootCauses: [
      {
        causeType: 'SERVICE',
        displayName: 'Vertex AI',
        resource: 'services/C7E2-9256-1C43',
        deviation: { deviationAmount: money((actual - expected) * 0.9) },
        subCauses: [
          {
            causeType: 'SKU',
            displayName: 'Vertex AI: Training on A100 80GB',
            resource: 'services/C7E2-9256-1C43/skus/2D54-4A4E-1D36',
            deviation: { deviationAmount: money((actual - expected) * 0.8) },
          },
        ],
      },
    ],
  };
}

let fake: FakeGoogleAnomalies;

beforeEach(async () => {
  // Two per page, so the source must follow the page token.
  fake = await FakeGoogleAnomalies.start(
    {
      [PARENT]: [
        googleAnomaly('g-1', '2026-11-09', 4410.25, 1200),
        // Found three weeks ago: long over, it says nothing.
        googleAnomaly('g-old', '2026-10-19', 3000, 1000),
        // Under the team's $200 floor.
        googleAnomaly('g-small', '2026-11-09', 1250, 1200),
      ],
    },
    2,
  );
});

afterEach(() => fake.close());

/** The team's deps with the project's anomaly source, as runtime builds it from burnrate.yml. */
function depsWithScope() {
  const t = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
  const config = configSchema.parse({ teams: [TEAM], sources: [SOURCE] });
  t.deps.anomalySources = buildSources(
    config,
    { BURNRATE_GCP_ENDPOINT: fake.endpoint },
    { googleAuth: fakeGoogleAuth() as never },
  ).anomalies;
  return t;
}

describe("Google Cloud's cost anomalies in the anomaly check", () => {
  it("imports Google's anomaly as one alert with its causes; an answer is recorded and nothing is sent", async () => {
    const { deps } = depsWithScope();
    await importRunawayBill(deps, '2026-11-10', []);
    const run = await runCheck(deps, anomalyCheck());
    const id = `anomaly:ml:gcp:anomalies:${PARENT}:${PARENT}/anomalies/g-1`;
    expect(run.findings.map((f) => `${f.state} ${f.id}`)).toEqual([`new ${id}`]);
    // Independent: the figures the fake was given.
    expect(run.findings[0]).toMatchObject({ started: '2026-11-09', day: '2026-11-09', actual: 4410.25, expected: 1200, excess: 3210.25 });
    const alert = renderPlainText(run.queued[0]!.message);
    expect(alert).toContain("Google Cloud's cost anomaly detection: +$3,210.25 vs expected since 9 Nov");
    // Its causes, and where an answer goes, are in the alert's Details.
    const details = renderPlainText(anomalyDetails(run.findings[0]!, 'ML'));
    expect(details).toContain('Root causes: service Vertex AI (+$2,889.23); usage type Vertex AI: Training on A100 80GB (+$2,568.20).');
    expect(details).toContain('its API takes no feedback, so an answer here stays in burnrate.');
    // One window of 30 days (both ends included in Google's filter), every page, with the token.
    expect(fake.calls.map((c) => [c.parent, c.query.get('filter'), c.query.get('pageToken'), c.token !== null])).toEqual([
      [PARENT, 'start_time = "20261010" AND end_time = "20261109"', null, true],
      [PARENT, 'start_time = "20261010" AND end_time = "20261109"', '2', true],
    ]);

    await dispatchClick(deps, CAROL, 'anomaly.not-expected', { f: id });
    const [entry] = await deps.store.audit.list();
    expect(`${entry!.action} ${entry!.result}`).toBe('anomaly.not-expected ok');
    expect(entry!.detail).toBe(
      "not-expected; Google Cloud's cost anomaly detection takes no feedback through its API: the answer is kept in burnrate only",
    );
    fake.assertNoUnexpectedCalls();
  });

  it("shows Google's anomaly on burnrate's own of the same day: one message", async () => {
    const { deps } = depsWithScope();
    await importRunawayBill(deps, '2026-11-10', [sweepRow('2026-11-08', 4200), sweepRow('2026-11-09', 5000)]);
    const run = await runCheck(deps, anomalyCheck());
    expect(run.findings.map((f) => f.id)).toEqual(['anomaly:ml:2026-11-08']);
    expect(run.findings[0]!.provider).toMatchObject({ id: `${PARENT}/anomalies/g-1`, alone: false, impact: 3210.25, noFeedback: true });
    expect(run.queued).toHaveLength(1);
    expect(renderPlainText(anomalyDetails(run.findings[0]!, 'ML'))).toContain(
      "Google Cloud's cost anomaly detection found it too (since 9 Nov, +$3,210.25).",
    );
  });

  it("a refusing API holds nothing else up: burnrate judges its own data, and Google's open anomaly stays", async () => {
    const { deps, setNow } = depsWithScope();
    await importRunawayBill(deps, '2026-11-10', []);
    const first = await runCheck(deps, anomalyCheck());
    fake.failNext();
    await importRunawayBill(deps, '2026-11-11', [sweepRow('2026-11-09', 5000), sweepRow('2026-11-10', 5000)]);
    setNow('2026-11-11T09:00:00Z');
    const next = await runCheck(deps, anomalyCheck());
    expect(next.findings.map((f) => `${f.state} ${f.id}`)).toEqual(['new anomaly:ml:2026-11-09', `open ${first.findings[0]!.id}`]);
    expect(next.resolved).toEqual([]);
  });
});

describe('anomalies on a gcp source in burnrate.yml', () => {
  const issues = (anomalies: unknown) =>
    configSchema
      .safeParse({ teams: [TEAM], sources: [{ ...SOURCE, anomalies }] })
      .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

  it('refuses a parent that is no project or billing account, or a team burnrate.yml does not define', () => {
    expect(issues({ scopes: [{ parent: 'ml-training-prod', team: 'ml' }] })).toEqual([
      'sources.0.anomalies.scopes.0.parent: expected projects/<project id> or billingAccounts/<billing account id>, e.g. projects/ml-training-prod',
    ]);
    expect(issues({ scopes: [{ parent: 'billingAccounts/012345-6789AB-CDEF01', team: 'nlp' }] })).toEqual([
      'sources.0.anomalies.scopes.0.team: unknown team "nlp"; expected one of ml',
    ]);
  });
});
