import { closest } from '../domain/closest.js';
import type { z } from 'zod';

/** Turns zod issues into lines like `teams[2].budget.monthly: expected a positive number, got "5k"`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], knownKeys: (path: PropertyKey[]) => string[]): string[] {
  return issues.map((issue) => {
    const where = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys
        .map((key) => {
          const suggestion = closest(key, knownKeys(issue.path));
          const hint = suggestion ? ` (did you mean "${suggestion}"?)` : '';
          return `${formatPath([...issue.path, key])}: unknown key${hint}`;
        })
        .join('\n');
    }
    const input = (issue as { input?: unknown }).input;
    if (issue.code === 'invalid_type' && input === undefined) return `${where}: is required (${issue.message})`;
    const got = input === undefined ? '' : `, got ${show(input)}`;
    return `${where}: ${issue.message}${got}`;
  });
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(top level)';
}

function show(value: unknown): string {
  if (value === null) return 'null';
  // JSON.stringify would print Infinity and NaN as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') {
    const kind = Object.getPrototypeOf(value)?.constructor?.name;
    return kind && kind !== 'Object' ? `a ${kind} value` : 'a mapping';
  }
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
