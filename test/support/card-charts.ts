/**
 * The chart elements Teams draws in Adaptive Cards (Chart.Line, Chart.VerticalBar,
 * Chart.VerticalBar.Grouped, Chart.Donut, Chart.Gauge), taught to the adaptivecards parser the
 * way Teams knows them. The library itself does not: it reports "Unknown element type" and shows
 * the element's fallback, which is what any host without charts does. Here each is parsed and its
 * fields checked against Microsoft's reference ("Charts in Adaptive Cards", learn.microsoft.com):
 * unknown fields, missing required ones, data of the wrong shape, a value that is no number, and a
 * chart without a fallback (a host without charts would show nothing) are parse problems.
 */

type Rule = 'string' | 'number' | 'boolean' | 'xy' | 'series' | 'slices' | 'fallback';

/** The fields each chart takes (beyond those every element has), and which are required. */
const CHARTS: Record<string, { fields: Record<string, Rule>; required: string[] }> = {
  'Chart.Line': {
    fields: { title: 'string', xAxisTitle: 'string', yAxisTitle: 'string', colorSet: 'string', color: 'string', data: 'series' },
    required: ['data'],
  },
  'Chart.VerticalBar': {
    fields: {
      title: 'string',
      xAxisTitle: 'string',
      yAxisTitle: 'string',
      colorSet: 'string',
      color: 'string',
      showBarValues: 'boolean',
      data: 'xy',
    },
    required: ['data'],
  },
  'Chart.VerticalBar.Grouped': {
    fields: {
      title: 'string',
      xAxisTitle: 'string',
      yAxisTitle: 'string',
      colorSet: 'string',
      color: 'string',
      stacked: 'boolean',
      showBarValues: 'boolean',
      data: 'series',
    },
    required: ['data'],
  },
  'Chart.Donut': { fields: { title: 'string', colorSet: 'string', data: 'slices' }, required: ['data'] },
  'Chart.Gauge': {
    fields: {
      title: 'string',
      min: 'number',
      max: 'number',
      value: 'number',
      valueFormat: 'string',
      subLabel: 'string',
      showLegend: 'boolean',
      showMinMax: 'boolean',
      colorSet: 'string',
    },
    required: ['value', 'max'],
  },
};

/** Fields every element may carry. */
const COMMON = new Set([
  'type',
  'id',
  'fallback',
  'isVisible',
  'separator',
  'spacing',
  'height',
  'horizontalAlignment',
  'requires',
  'targetWidth',
]);

const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What Teams would refuse in one chart element, as sentences. */
export function chartElementProblems(type: string, source: Record<string, unknown>): string[] {
  const spec = CHARTS[type];
  if (!spec) return [`${type} is not a chart Teams draws`];
  const problems: string[] = [];
  for (const key of Object.keys(source)) if (!COMMON.has(key) && !(key in spec.fields)) problems.push(`${type} has unknown field "${key}"`);
  for (const key of spec.required) if (source[key] === undefined) problems.push(`${type} needs ${key}`);
  if (source.fallback === undefined) problems.push(`${type} has no fallback: hosts without charts would show nothing`);
  for (const [key, rule] of Object.entries(spec.fields)) {
    const value = source[key];
    if (value === undefined) continue;
    const bad = (what: string) => problems.push(`${type} ${key} ${what}`);
    switch (rule) {
      case 'string':
      case 'boolean':
        if (typeof value !== rule) bad(`must be a ${rule}`);
        break;
      case 'number':
        if (!isNumber(value)) bad('must be a number');
        break;
      case 'xy':
        if (!Array.isArray(value) || value.length === 0) bad('must be a non-empty array');
        else
          value.forEach(
            (p, i) => !(isObject(p) && typeof p.x === 'string' && isNumber(p.y)) && bad(`[${i}] must be { x: string, y: number }`),
          );
        break;
      case 'series':
        if (!Array.isArray(value) || value.length === 0) bad('must be a non-empty array');
        else
          value.forEach((s, i) => {
            if (!isObject(s) || typeof s.legend !== 'string' || !Array.isArray(s.values) || s.values.length === 0)
              return bad(`[${i}] must be { legend: string, values: [...] }`);
            s.values.forEach(
              (p, j) =>
                !(isObject(p) && typeof p.x === 'string' && isNumber(p.y)) && bad(`[${i}].values[${j}] must be { x: string, y: number }`),
            );
          });
        break;
      case 'slices':
        if (!Array.isArray(value) || value.length === 0) bad('must be a non-empty array');
        else
          value.forEach(
            (s, i) =>
              !(isObject(s) && typeof s.legend === 'string' && isNumber(s.value)) &&
              bad(`[${i}] must be { legend: string, value: number }`),
          );
        break;
      case 'fallback':
        break;
    }
  }
  if (type === 'Chart.Gauge' && isNumber(source.max) && !((source.max as number) > ((source.min as number) ?? 0)))
    problems.push('Chart.Gauge max must be above min');
  return problems;
}

/** The chart types, for registering them with the parser. */
export const CHART_TYPES = Object.keys(CHARTS);

/**
 * A parser registry with the chart elements added: each parses its JSON, reports what Teams would
 * refuse as a parse event, and draws nothing (the tests never render to a DOM).
 */
export function registryWithCharts(AC: any): unknown {
  const registry = new AC.CardObjectRegistry();
  AC.GlobalRegistry.populateWithDefaultElements(registry);
  for (const type of CHART_TYPES) {
    class ChartElement extends AC.CardElement {
      getJsonTypeName() {
        return type;
      }
      internalParse(source: Record<string, unknown>, context: any) {
        super.internalParse(source, context);
        for (const problem of chartElementProblems(type, source))
          context.logParseEvent(this, AC.ValidationEvent.InvalidPropertyValue, problem);
      }
      internalRender() {
        return undefined;
      }
    }
    registry.register(type, ChartElement, AC.Versions.v1_5);
  }
  return registry;
}
