import { spendReport } from '../../commands/spend.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { spendSummary } from '../../templates/spend-summary.js';
import { parsePeriod, toDay } from '../domain/period.js';
import { isExtensionDimension, KUBE_DIMENSIONS, type KubeDimension, type SpendDimension } from '../domain/spend.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, oneOf, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';

const USAGE =
  'burnrate spend [--team T] [--period this-month|last-month|YYYY-MM|YYYY-MM-DD..YYYY-MM-DD] [--by team|service|resource|day|provider|namespace|workload|x_<column>] [--basis charge|invoice] [--json]';
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
    },
    USAGE,
  );
  const by =
    (values.by !== undefined && isExtensionDimension(values.by) ? values.by : oneOf(values.by, DIMENSIONS, 'by', USAGE)) ??
    (values.team ? 'service' : 'team');
  const basis = oneOf(values.basis, BASES, 'basis', USAGE) ?? 'charge';
  const now = (io.clock ?? (() => new Date()))();
  const period = parsePeriod(values.period ?? 'this-month', toDay(now));
  const runtime = runtimeOf(values, io);
  try {
    const report = await spendReport(runtime.deps, { period, by, basis, ...(values.team ? { team: values.team } : {}) });
    if (values.json) io.out.write(`${JSON.stringify(report, null, 2)}\n`);
    else io.out.write(`${renderPlainText(spendSummary(report, report.teams?.join(', ') ?? 'all teams'))}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};
