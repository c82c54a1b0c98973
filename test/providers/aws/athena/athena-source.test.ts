import { describe, expect, it } from 'vitest';
import { addDays } from '../../../../src/domain/period.js';
import { refreshSources } from '../../../../src/jobs/refresh-sources.js';
import { buildSources } from '../../../../src/providers/registry.js';
import { FakeAthena, type FakeAthenaOptions } from '../../../fakes/fake-athena.js';
import { testDeps } from '../../../support/deps.js';
import { fakeLifecycle } from '../../../support/fake-lifecycle.js';
import { stubAwsEnv } from '../../../support/aws-test-env.js';
import { athenaSourceSchema } from '../../../../src/config/athena-config.js';
import {
  CUR2_SPLIT_TABLE_COLUMNS,
  CUR2_TABLE_COLUMNS,
  cur2Row,
  expectedTeamTotals,
  FOCUS_TABLE_COLUMNS,
  focusRow,
  toTenThousandths,
  type LineItem,
} from './export-tables.js';
import { demoTeams } from '../../../support/demo-org.js';

const NOW = '2026-11-21T09:00:00Z';

/**
 * Every day: a GPU instance tagged llm, a bucket tagged " research " under another spelling of the
 * key, an untagged network line, an account whose Cost Category names research, a tag naming no
 * team and a tag saying NULL; on each month's first day, its tax. Amounts have cents and beyond.
 */
function focusItems(from: string, to: string): LineItem[] {
  const items: LineItem[] = [];
  for (let day = from; day < to; day = addDays(day, 1)) {
    items.push(
      {
        day,
        team: 'llm-training',
        service: 'Amazon Elastic Compute Cloud',
        billed: 123.4567,
        effective: 100.1234,
        tags: { 'user:team': 'llm', 'user:Name': 'gpu-1' },
        resource: 'i-0gpu1',
      },
      {
        day,
        team: 'ml-research',
        service: 'Amazon Simple Storage Service',
        billed: 10.0101,
        effective: 10.0101,
        tags: { 'user:Team': ' research ' },
      },
      { day, team: '(untagged)', service: 'AWS Data Transfer', billed: 3.3333, effective: 3.3333 },
      {
        day,
        team: 'ml-research',
        service: 'Amazon SageMaker',
        billed: 1.5,
        effective: 1.45,
        tags: { 'user:Name': 'x' },
        costCategories: { team: 'research' },
      },
      { day, team: '(unmapped)', service: 'Amazon SageMaker', billed: 0.7, effective: 0.7, tags: { 'user:team': 'interns' } },
      { day, team: '(untagged)', service: 'Amazon CloudWatch', billed: 0.2, effective: 0.2, tags: { 'user:team': 'NULL' } },
    );
    if (day.endsWith('-01')) items.push({ day, team: '(untagged)', service: 'Tax', billed: 42.42, effective: 42.42, type: 'Tax' });
  }
  return items;
}

/** Covered usage at its Savings Plan rate, its negation, plain usage and a tax: CUR 2.0's line item types. */
function curItems(from: string, to: string): LineItem[] {
  const items: LineItem[] = [];
  for (let day = from; day < to; day = addDays(day, 1)) {
    const gpu = { day, team: 'llm-training', service: 'AmazonEC2', tags: { user_team: 'llm' }, resource: 'i-0gpu1' };
    items.push(
      { ...gpu, billed: 50.5, effective: 30.2525, type: 'SavingsPlanCoveredUsage' },
      { ...gpu, billed: -50.5, effective: 0, type: 'SavingsPlanNegation' },
      { day, team: 'ml-research', service: 'AmazonS3', billed: 5.0505, effective: 5.0505, tags: { user_team: 'research' } },
      { day, team: '(untagged)', service: 'AWSDataTransfer', billed: 1.0101, effective: 1.0101 },
    );
    if (day.endsWith('-01')) items.push({ day, team: '(untagged)', service: 'AWSTax', billed: 7.77, effective: 7.77, type: 'Tax' });
  }
  return items;
}

const fakes = fakeLifecycle<FakeAthena>();

function config(source: Record<string, unknown> = {}, tagKeys = ['user:team', 'team']) {
  return {
    ownership: { tagKeys },
    teams: demoTeams(),
    sources: [
      {
        type: 'athena',
        database: 'billing',
        table: 'focus_export',
        format: 'focus',
        region: 'eu-west-1',
        workgroup: 'finops',
        outputLocation: 's3://acme-athena-results/burnrate/',
        ...source,
      },
    ],
  };
}

async function setup(
  options: {
    items?: LineItem[];
    format?: 'focus' | 'cur2';
    source?: Record<string, unknown>;
    tagKeys?: string[];
  } & Partial<FakeAthenaOptions> = {},
) {
  const format = options.format ?? 'focus';
  const items = options.items ?? (format === 'focus' ? focusItems : curItems)('2026-09-01', '2026-11-22');
  const table = format === 'focus' ? 'focus_export' : 'cur2_export';
  const fake = fakes.track(
    await FakeAthena.start({
      database: 'billing',
      table,
      workgroup: 'finops',
      columns: options.columns ?? (format === 'focus' ? FOCUS_TABLE_COLUMNS : CUR2_TABLE_COLUMNS),
      rows: items.map(format === 'focus' ? focusRow : cur2Row),
      ...(options.rowsPerPage ? { rowsPerPage: options.rowsPerPage } : {}),
      ...(options.bytesPerRow ? { bytesPerRow: options.bytesPerRow } : {}),
    }),
  );
  stubAwsEnv(fake.endpoint);
  const t = testDeps(config({ table, format, ...options.source }, options.tagKeys), NOW);
  t.deps.sources = buildSources(t.deps.config, process.env).spend;
  return { ...t, fake, items };
}

async function teamTotals(deps: Awaited<ReturnType<typeof setup>>['deps'], start: string, end: string) {
  const totals = await deps.store.spend.totals({ period: { start, end } }, 'team');
  return new Map(totals.map((r) => [r.key, { billed: toTenThousandths(r.billed), effective: toTenThousandths(r.effective) }]));
}

describe('Athena spend source (AWS Data Exports)', () => {
  it('the Athena source imports a month through the fake with team totals equal to an independent sum', async () => {
    const { deps, fake, items } = await setup({ rowsPerPage: 100 });
    expect(await refreshSources(deps)).toMatchObject([{ source: 'athena', ok: true }]);

    const [start] = fake.callsOf('StartQueryExecution');
    expect(start!.input).toMatchObject({
      QueryExecutionContext: { Catalog: 'AwsDataCatalog', Database: 'billing' },
      WorkGroup: 'finops',
      ResultConfiguration: { OutputLocation: 's3://acme-athena-results/burnrate/' },
    });
    // Polled through QUEUED and RUNNING until SUCCEEDED, then read page by page.
    expect(fake.callsOf('GetQueryExecution')).toHaveLength(3);
    expect(fake.callsOf('GetQueryResults').length).toBeGreaterThan(1);

    // November up to yesterday: today's charges are still being billed and are left out.
    const november = await teamTotals(deps, '2026-11-01', '2026-11-22');
    expect(november).toEqual(expectedTeamTotals(items, '2026-11-01', '2026-11-21'));
    expect(november.get('llm-training')).toEqual({ billed: 20 * 123.4567, effective: 20 * 100.1234 });
    // Whole billing periods are read: all of September, though the backfill starts on the 12th.
    expect(await teamTotals(deps, '2026-09-01', '2026-11-01')).toEqual(expectedTeamTotals(items, '2026-09-01', '2026-11-01'));

    const resources = await deps.store.spend.totals(
      { period: { start: '2026-11-20', end: '2026-11-21' }, teams: ['llm-training'] },
      'resource',
    );
    expect(resources.map((r) => r.key)).toEqual(['i-0gpu1']);
  });

  it('pages through GetQueryResults with NextToken, skipping the header row once', async () => {
    const { deps, fake, items } = await setup({ rowsPerPage: 7 });
    await refreshSources(deps);
    const pages = fake.callsOf('GetQueryResults');
    expect(pages.length).toBeGreaterThan(50);
    expect(pages[0]!.input.NextToken).toBeUndefined();
    expect(pages.slice(1).every((p) => typeof p.input.NextToken === 'string')).toBe(true);
    expect(await teamTotals(deps, '2026-09-01', '2026-11-21')).toEqual(expectedTeamTotals(items, '2026-09-01', '2026-11-21'));
  });

  it('reads only the billing periods of the missing days on the next refresh, and the previous one until its bill is final', async () => {
    const { deps, fake, setNow, items } = await setup();
    await refreshSources(deps);
    const backfill = fake.queries()[0]!;
    expect(backfill).toContain(`"billing_period" IN ('2026-09', '2026-10', '2026-11')`);
    expect(backfill).toContain(`"chargeperiodstart" < TIMESTAMP '2026-11-21 00:00:00'`);

    // AWS adds a late credit dated 2 November, and bills 21 November.
    const revised = [
      ...items,
      {
        day: '2026-11-02',
        team: 'llm-training',
        service: 'Amazon Elastic Compute Cloud',
        billed: -40,
        effective: -40,
        tags: { 'user:team': 'llm' },
      },
    ];
    await fake.load(revised.map(focusRow));
    setNow('2026-11-22T09:00:00Z');
    expect(await refreshSources(deps)).toMatchObject([{ ok: true }]);
    const next = fake.queries()[1]!;
    expect(next).toContain(`"billing_period" IN ('2026-11')`);
    expect(next).toContain(`TIMESTAMP '2026-11-22 00:00:00'`);
    expect(next).not.toContain('2026-10');
    expect(await teamTotals(deps, '2026-09-01', '2026-11-22')).toEqual(expectedTeamTotals(revised, '2026-09-01', '2026-11-22'));

    // Early December: November is read again until AWS has finalised it.
    setNow('2026-12-03T09:00:00Z');
    await refreshSources(deps);
    expect(fake.queries()[2]).toContain(`"billing_period" IN ('2026-11', '2026-12')`);
  });

  it('reads CUR 2.0: Savings Plan covered usage at its effective cost, negations at none, user_ tags', async () => {
    const { deps, fake, items } = await setup({ format: 'cur2' });
    expect(await refreshSources(deps)).toMatchObject([{ ok: true }]);
    expect(fake.queries()[0]).toContain('"line_item_unblended_cost"');
    const totals = await teamTotals(deps, '2026-09-01', '2026-11-21');
    expect(totals).toEqual(expectedTeamTotals(items, '2026-09-01', '2026-11-21'));
    // Covered usage and its negation net to nothing billed; the plan's rate is the effective cost.
    expect(totals.get('llm-training')).toEqual({ billed: 0, effective: toTenThousandths(81 * 30.2525) });
    const charges = await deps.store.spend.totals({ period: { start: '2026-11-01', end: '2026-11-02' } }, 'service');
    expect(charges.map((c) => c.key).sort()).toEqual(['AWSDataTransfer', 'AWSTax', 'AmazonEC2', 'AmazonS3']);
  });

  it('finds the team in the ownership tag (any case of its key), then Cost Categories; no tag is untagged, an unknown one unmapped', async () => {
    const { deps } = await setup();
    await refreshSources(deps);
    const day = await teamTotals(deps, '2026-11-20', '2026-11-21');
    expect(day).toEqual(
      new Map([
        ['llm-training', { billed: 123.4567, effective: 100.1234 }],
        ['ml-research', { billed: 11.5101, effective: 11.4601 }],
        ['(untagged)', { billed: 3.5333, effective: 3.5333 }],
        ['(unmapped)', { billed: 0.7, effective: 0.7 }],
      ]),
    );
  });

  it('looks up only tagKey when set, quoting it as a literal', async () => {
    const { deps, fake } = await setup({ source: { tagKey: "user:team'; --" } });
    expect(await refreshSources(deps)).toMatchObject([{ ok: true }]);
    // Compared as ownership compares keys (no whitespace), inside an escaped literal.
    expect(fake.queries()[0]).toContain(`= 'user:team'';--'`);
    // No tag carries that key: everything is untagged, nothing failed.
    const day = await teamTotals(deps, '2026-11-20', '2026-11-21');
    expect([...day.keys()]).toEqual(['(untagged)']);
  });

  it('names the reason of a FAILED query and what to do, and writes nothing', async () => {
    const { deps, fake } = await setup();
    fake.failNextQuery(
      'Insufficient permissions to execute the query. User: arn:aws:iam::111111111111:user/burnrate is not authorized to perform: glue:GetTable on resource: arn:aws:glue:eu-west-1:111111111111:table/billing/focus_export',
    );
    const [result] = await refreshSources(deps);
    expect(result!.ok).toBe(false);
    expect(result!.error).toMatch(/^Athena query [0-9a-f-]+ on billing\.focus_export failed: Insufficient permissions/);
    expect(result!.error).toContain('Allow glue:GetTable and glue:GetPartitions on billing.focus_export');
    expect(fake.callsOf('GetQueryExecution')).toHaveLength(3);
    expect(fake.callsOf('GetQueryResults')).toHaveLength(0);
    expect(await deps.store.spend.totals({ period: { start: '2026-09-01', end: '2026-12-01' } }, 'team')).toEqual([]);
  });

  it('says so when the table lacks the columns of the format given', async () => {
    const { deps } = await setup({ source: { format: 'cur2' } });
    const [result] = await refreshSources(deps);
    expect(result!.ok).toBe(false);
    expect(result!.error).toContain('check format (focus for FOCUS 1.2, cur2 for CUR 2.0)');
  });

  it('stops a query seen scanning more than maxGigabytesScanned, and says how to cap it for good', async () => {
    // 2 MB per line item: the three months read scan about 1.1 GB.
    const { deps, fake } = await setup({ bytesPerRow: 2e6, source: { maxGigabytesScanned: 0.5 } });
    const [result] = await refreshSources(deps);
    expect(result!.ok).toBe(false);
    expect(result!.error).toMatch(/scanned 1\.\d GB, more than maxGigabytesScanned \(0\.5 GB\) allows: burnrate stopped it/);
    expect(result!.error).toContain('per-query data usage control on the workgroup finops');
    const id = fake.callsOf('GetQueryExecution')[0]!.input.QueryExecutionId;
    expect(fake.callsOf('StopQueryExecution').map((c) => c.input.QueryExecutionId)).toEqual([id]);
    expect(fake.callsOf('GetQueryResults')).toHaveLength(0);
    expect(await deps.store.spend.totals({ period: { start: '2026-09-01', end: '2026-12-01' } }, 'team')).toEqual([]);
  });

  it("reads CUR 2.0's pod split (split cost allocation data) when podSplit is set: each pod's day on its node equals a plain sum of its split cost, before discounts as the node's lines are", async () => {
    const node = 'i-0gpu1';
    const arn = (ns: string, pod: string) => `arn:aws:eks:us-east-1:222222222222:pod/prod/${ns}/${pod}/0f5c1a2e-uid`;
    // Each day two trainer pods and an eval pod on the node, with a line per pod and hour kind
    // (GPU, CPU and memory lines of one pod add up); the eval pod's account has a discount (net),
    // which burnrate does not take off its split: the node's own lines are read before discounts too.
    const pods = (from: string, to: string): LineItem[] => {
      const lines: LineItem[] = [];
      for (let day = from; day < to; day = addDays(day, 1))
        for (const [ns, pod, cost, net] of [
          ['ml', 'trainer-5d8c9f7b4-x1k2p', 12.3456, undefined],
          ['ml', 'trainer-5d8c9f7b4-x1k2p', 1.0001, undefined],
          ['ml', 'trainer-5d8c9f7b4-q7w3z', 4.5, undefined],
          ['eval', 'eval-0', 3.25, 2.75],
        ] as const)
          lines.push({
            day,
            team: '(untagged)',
            service: 'AmazonEKS',
            billed: 0,
            effective: 0,
            resource: arn(ns, pod),
            split: { parent: node, cost, net },
          });
      return lines;
    };
    const items = [...curItems('2026-09-01', '2026-11-22'), ...pods('2026-09-01', '2026-11-22')];
    const { deps, fake } = await setup({ format: 'cur2', items, columns: CUR2_SPLIT_TABLE_COLUMNS, source: { podSplit: true } });
    expect(await refreshSources(deps)).toMatchObject([{ ok: true }]);
    const [spendSql, splitSql] = fake.queries();
    expect(splitSql).toContain('"split_line_item_split_cost"');
    expect(splitSql).not.toContain('split_line_item_net_split_cost');
    expect(splitSql).toContain(`"billing_period" IN ('2026-09', '2026-10', '2026-11')`);
    expect(spendSql).not.toContain('split_line_item');

    const stored = await deps.store.kubeUsage.splitCosts({ start: '2026-09-01', end: '2026-12-01' });
    const expected = new Map<string, number>();
    for (const item of items) {
      if (!item.split || item.day >= '2026-11-21') continue; // today's charges are still being billed
      const pod = item.resource!.split('/').slice(2, 4).join('/');
      const key = `${item.day}|${item.split.parent}|${pod}`;
      expected.set(key, toTenThousandths((expected.get(key) ?? 0) + item.split.cost));
    }
    expect(new Map(stored.map((r) => [`${r.day}|${r.nodeInstanceId}|${r.namespace}/${r.pod}`, toTenThousandths(r.splitCost)]))).toEqual(
      expected,
    );
    expect(stored.every((r) => r.cluster === 'prod' && r.currency === 'USD')).toBe(true);
    // The team totals are the bill's as before: a split is of the node's cost, never spend of its own.
    expect(await teamTotals(deps, '2026-09-01', '2026-11-21')).toEqual(expectedTeamTotals(items, '2026-09-01', '2026-11-21'));
  });

  it('refuses podSplit on a FOCUS table, saying what to write instead', () => {
    const parsed = athenaSourceSchema.safeParse({
      type: 'athena',
      database: 'billing',
      table: 'focus_export',
      format: 'focus',
      region: 'eu-west-1',
      podSplit: true,
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['podSplit'], message: expect.stringContaining('set format: cur2') });
  });
});
