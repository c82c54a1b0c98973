import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse, stringify } from 'yaml';

/**
 * Renders the chart's templates the way `helm template` does, for the part of Go's template
 * language the chart uses: `{{ .Values.a.b }}`, `{{ .Release.Name }}`, `| quote`,
 * `{{- toYaml .Values.x | nindent N }}`, `{{- if .Values.x }}` / `{{- else }}` / `{{- end }}`, and
 * the `{{-`/`-}}` whitespace trimming. Anything else throws, so the chart cannot grow a construct
 * this renderer would silently get wrong.
 */
export function renderChart(
  chartDir: string,
  overrides: Record<string, unknown> = {},
  release = { Name: 'burnrate', Namespace: 'platform' },
) {
  const values = merge(parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) as Record<string, unknown>, overrides);
  const dir = join(chartDir, 'templates');
  const documents: Record<string, unknown>[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const text = renderTemplate(readFileSync(join(dir, file), 'utf8'), { Values: values, Release: release });
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      const value = doc.toJS() as Record<string, unknown> | null;
      if (value) documents.push(value);
    }
  }
  return documents;
}

type Scope = { Values: Record<string, unknown>; Release: Record<string, string> };

export function renderTemplate(template: string, scope: Scope): string {
  // Whitespace trimming first: `{{-` eats the whitespace before, `-}}` the whitespace after.
  const trimmed = template.replace(/\s*\{\{-/g, '{{').replace(/-\}\}\s*/g, '}}');
  const tokens = trimmed.split(/(\{\{.*?\}\})/s);
  const out: string[] = [];
  const stack: { active: boolean; taken: boolean }[] = [];
  const active = () => stack.every((s) => s.active);
  for (const token of tokens) {
    const action = /^\{\{\s*(.*?)\s*\}\}$/s.exec(token)?.[1];
    if (action === undefined) {
      if (active()) out.push(token);
      continue;
    }
    const ifMatch = /^if\s+(\S+)$/.exec(action);
    if (ifMatch) {
      const truth = truthy(lookup(ifMatch[1]!, scope));
      stack.push({ active: truth, taken: truth });
    } else if (action === 'else') {
      const top = stack[stack.length - 1]!;
      top.active = !top.taken;
    } else if (action === 'end') {
      stack.pop();
    } else if (active()) {
      out.push(evaluate(action, scope));
    }
  }
  if (stack.length > 0) throw new Error('unclosed {{ if }}');
  return out.join('');
}

function evaluate(action: string, scope: Scope): string {
  const [head, ...pipes] = action.split('|').map((p) => p.trim());
  const toYaml = /^toYaml\s+(\S+)$/.exec(head!);
  let value: unknown = toYaml ? stringify(lookup(toYaml[1]!, scope)).trimEnd() : lookup(head!, scope);
  for (const pipe of pipes) {
    const nindent = /^nindent\s+(\d+)$/.exec(pipe);
    if (nindent) {
      const pad = ' '.repeat(Number(nindent[1]));
      value = `\n${String(value)
        .split('\n')
        .map((line) => pad + line)
        .join('\n')}`;
    } else if (pipe === 'quote') value = JSON.stringify(String(value));
    else throw new Error(`the test renderer does not know the template function "${pipe}"`);
  }
  return String(value);
}

function lookup(path: string, scope: Scope): unknown {
  if (!path.startsWith('.')) throw new Error(`the test renderer does not know "${path}"`);
  let value: unknown = scope;
  for (const part of path.slice(1).split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) throw new Error(`${path}: no such value`);
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Go templates: false, 0, "", nil and empty maps and lists are false. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(over))
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && base[key] && typeof base[key] === 'object'
        ? merge(base[key] as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  return out;
}
