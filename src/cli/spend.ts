import { spendReport } from '../../commands/spend.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { spendSummary } from '../../templates/spend-summary.js';
import { parsePeriod, toDay } from '../domain/period.js';
import { isExtensionDimension, KUBE_DIMENSIONS, type KubeDimension, type SpendDimension } from '../domain/spend.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, oneOf, parseVerbArgs, usageError } from './args.js';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Verb } from './io.js';
import { jsonText } from '../domain/json-text.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.spend.usage;
const DIMENSIONS: (SpendDimension | KubeDimension)[] = ['team', 'service', 'resource', 'day', 'provider', ...KUBE_DIMENSIONS];
const BASES = ['charge', 'invoice'] as const;

export const spendVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(
    args,
    {
      ...COMMON_OPTIONS,
      team: { type: 'string' },
      period: { type: 'string' },
      by: { type: 'string' },
      basis: { type: 'string' },
      json: { type: 'boolean' },
      chart: { type: 'string' },
    },
    USAGE,
  );
  const by =
    (values.by !== undefined && isExtensionDimension(values.by) ? values.by : oneOf(values.by, DIMENSIONS, 'by', USAGE)) ??
    (values.team ? 'service' : 'team');
  const basis = oneOf(values.basis, BASES, 'basis', USAGE) ?? 'charge';
  if (values.chart !== undefined && (by !== 'day' || basis !== 'charge'))
    throw usageError(`--chart draws spend by day: add --by day${basis !== 'charge' ? ' and leave out --basis invoice' : ''}`, USAGE);
  const now = (io.clock ?? (() => new Date()))();
  const period = parsePeriod(values.period ?? 'this-month', toDay(now));
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const report = await spendReport(runtime.deps, { period, by, basis, ...(values.team ? { team: values.team } : {}) });
    if (values.json) io.out.write(`${jsonText(report)}\n`);
    else io.out.write(`${renderPlainText(spendSummary(report, report.teams?.join(', ') ?? 'all teams'))}\n`);
    if (values.chart) {
      const { spendByDayChart } = await import('../../commands/spend-chart.js');
      const chart = await spendByDayChart(runtime.deps, report, now);
      const file = resolve(io.cwd, values.chart);
      if (chart) writeFileSync(file, chart);
      (values.json ? io.err : io.out).write(chart ? `chart written to ${file}\n` : 'no spend in this period: no chart written\n');
    }
    return 0;
  } finally {
    await runtime.close();
  }
};
