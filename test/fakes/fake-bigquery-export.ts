/** One line of the Cloud Billing export as BigQuery stores it (the fields burnrate's query reads). */
export interface FakeExportRow {
  day: string;
  /** YYYYMM; defaults to the usage month. */
  invoiceMonth?: string;
  service: string;
  project: string;
  labels?: Record<string, string>;
  projectLabels?: Record<string, string>;
  cost: number;
  /** Credit amounts (negative), netted by the query. */
  credits?: number[];
  currency?: string;
  /** resource.name: the name the owner chose (detailed export). */
  resource?: string;
  /** resource.global_name: the resource's unique name, `//compute.googleapis.com/projects/.../instances/<id>` for a VM (detailed export). */
  globalName?: string;
  /** usage.unit ('seconds' for a VM's time, 'byte-seconds' for memory, ...) and the hourly window the line is for (usage_start_time's hour, 0-23). */
  usageUnit?: string;
  hour?: number;
}

export interface QueryParameter {
  name: string;
  parameterType: { type: string; arrayType?: { type: string } };
  parameterValue: { value?: string; arrayValues?: { value: string }[] };
}

/**
 * What BigQuery would answer to burnrate's billing-export query, computed here: the fake cannot run
 * GoogleSQL, so it checks that the query reads the expected table, nets credits, looks at resource
 * labels then project labels and prunes partitions, and then aggregates the rows the same way.
 */
export function runExportQuery(
  query: string,
  params: readonly QueryParameter[],
  table: string,
  rows: readonly FakeExportRow[],
): { problem?: string; fields?: string[]; values?: (string | null)[][] } {
  const required = [
    `FROM \`${table}\``,
    'UNNEST(credits)',
    'UNNEST(labels)',
    'UNNEST(project.labels)',
    'DATE(_PARTITIONTIME) >= @start',
    'GROUP BY',
  ];
  const missing = required.filter((fragment) => !query.includes(fragment));
  if (missing.length > 0) return { problem: `query lacks ${missing.join(', ')}` };
  const param = (name: string) => params.find((p) => p.name === name);
  const start = param('start');
  const end = param('end');
  const keys = param('tag_keys');
  if (start?.parameterType.type !== 'DATE' || end?.parameterType.type !== 'DATE' || keys?.parameterType.arrayType?.type !== 'STRING')
    return { problem: 'expected DATE @start, @end and ARRAY<STRING> @tag_keys' };
  const isDay = (v: string | undefined) => /^\d{4}-\d{2}-\d{2}$/.test(v ?? '');
  if (!isDay(start.parameterValue.value) || !isDay(end.parameterValue.value))
    return { problem: `@start and @end must be dates, got ${JSON.stringify([start.parameterValue, end.parameterValue])}` };
  const tagKeys = (keys.parameterValue.arrayValues ?? []).map((v) => v.value);
  const detailed = query.includes('resource.name');
  if (detailed && !/COALESCE\(resource\.global_name, resource\.name\) AS resource/.test(query))
    return { problem: 'the detailed export keys a resource by resource.global_name (resource.name is only its owner-given name)' };
  if (detailed && !query.includes("COUNT(DISTINCT IF(usage.unit = 'seconds'"))
    return { problem: "a VM's hours are the distinct hourly windows of its time-based lines" };
  const first = (labels: Record<string, string> | undefined) => {
    for (const key of tagKeys) {
      const hit = Object.entries(labels ?? {}).find(([k]) => k.toLowerCase() === key);
      if (hit) return hit[1];
    }
    return null;
  };
  const groups = new Map<string, { key: (string | null)[]; cost: number; net: number; name: string | null; hours: Set<number> }>();
  for (const row of rows) {
    if (row.day < start.parameterValue.value! || row.day >= end.parameterValue.value!) continue;
    const owner = first(row.labels) ?? first(row.projectLabels);
    const key = [
      row.day,
      row.invoiceMonth ?? row.day.slice(0, 7).replace('-', ''),
      row.service,
      row.project,
      owner,
      ...(detailed ? [row.globalName ?? row.resource ?? null] : []),
      row.currency ?? 'USD',
    ];
    const id = JSON.stringify(key);
    const group = groups.get(id) ?? { key, cost: 0, net: 0, name: null, hours: new Set<number>() };
    if (row.globalName && row.resource) group.name = row.resource;
    if (row.usageUnit === 'seconds' && /^\/\/compute\.googleapis\.com\/projects\/.+\/instances\//.test(row.globalName ?? ''))
      group.hours.add(row.hour ?? 0);
    group.cost += row.cost;
    group.net += row.cost + (row.credits ?? []).reduce((a, b) => a + b, 0);
    groups.set(id, group);
  }
  const fields = ['day', 'invoice_month', 'service', 'project', 'owner', ...(detailed ? ['resource'] : []), 'currency', 'cost', 'net'];
  const extra = detailed ? ['resource_name', 'usage_hours'] : [];
  return {
    fields: [...fields, ...extra],
    values: [...groups.values()].map((g) => [
      ...g.key,
      String(g.cost),
      String(g.net),
      ...(detailed ? [g.name, g.hours.size > 0 ? String(g.hours.size) : null] : []),
    ]),
  };
}
