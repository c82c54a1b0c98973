import { resolve } from 'node:path';
import { CHAT_CHANNELS } from '../chat/platforms.js';
import { loadConfig } from '../config/load-config.js';
import { teamResolver } from '../domain/ownership.js';
import { buildRuntime } from '../runtime.js';
import { readFocusFiles } from '../providers/focus/read-focus.js';
import type { ImportSummary } from '../domain/spend-import.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import type { Verb } from './io.js';
import { progressBar } from './progress.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.import.usage;

/**
 * Imports FOCUS exports, all files or none. Files are parts of an export: importing a file again
 * replaces only that part, so parts imported one at a time add up. --replace-period replaces the
 * whole billing periods the files cover instead (a complete, corrected export).
 */
export const importVerb: Verb = async (args, io) => {
  const options = {
    ...COMMON_OPTIONS,
    source: { type: 'string' },
    json: { type: 'boolean' },
    'replace-period': { type: 'boolean' },
  } as const;
  const { values, positionals } = parseVerbArgs(args, options, USAGE, true);
  const [format, ...files] = positionals;
  if (format !== 'focus') throw usageError(format ? `unknown import format "${format}"` : 'missing import format', USAGE);
  if (files.length === 0) throw usageError('no files given', USAGE);
  const sourceId = values.source ?? 'focus';
  const replacePeriod = values['replace-period'] === true;

  // Read and validate everything before the database is even opened: a bad file writes nothing.
  const { config } = await loadConfig(values.config, CHAT_CHANNELS, io.env, io.cwd);
  const configured = config.sources.find((s) => s.type === 'focus' && (s.id ?? 'focus') === sourceId);
  const bar = progressBar(io.err, 'Importing');
  const started = Date.now();
  const batch = await readFocusFiles(
    files.map((f) => resolve(io.cwd, f)),
    {
      now: new Date(),
      tagKeys: config.ownership.tagKeys,
      unitTagKeys: config.unitCosts.tagKeys,
      resolveTeam: teamResolver(config.teams),
      onProgress: bar.update,
    },
    sourceId,
    configured?.type === 'focus' ? { lineCostCeiling: configured.lineCostCeiling, dimensions: configured.dimensions } : {},
  );
  bar.finish();
  for (const warning of batch.warnings) io.err.write(`warning: ${warning}\n`);

  const runtime = await buildRuntime({ config, dbPath: values.db, env: io.env, cwd: io.cwd });
  try {
    const { store } = runtime.deps;
    const summary = await store.importBatches([batch], undefined, { replacePeriod });
    const fileCount = batch.scope.parts?.length ?? files.length;
    const result = {
      ...summary,
      files: fileCount,
      dataThrough: batch.dataThrough,
      warnings: batch.warnings,
      seconds: (Date.now() - started) / 1000,
    };
    if (values.json) io.out.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      io.out.write(
        `Imported ${fileCount} file(s): ${summary.rowsInserted} daily rows for ${summary.billingPeriods.join(', ') || 'no billing period'}; ${describeReplacement(summary)}; data through ${batch.dataThrough ?? 'n/a'} (${result.seconds.toFixed(1)} s)\n`,
      );
    }
    return 0;
  } finally {
    await runtime.close();
  }
};

/** Says which rows the import replaced: whole billing periods, some earlier parts, or none. */
function describeReplacement(summary: ImportSummary): string {
  const periods = summary.billingPeriods.join(', ');
  if (summary.replaced === 'period')
    return `replaced the whole billing period${summary.billingPeriods.length > 1 ? 's' : ''} ${periods} (${summary.rowsDeleted} earlier rows)`;
  if (summary.rowsDeleted === 0) return 'added to the billing period as new parts (no earlier part replaced)';
  const parts =
    summary.replacedParts.length > 0
      ? `earlier part${summary.replacedParts.length > 1 ? 's' : ''} ${summary.replacedParts.join(', ')}`
      : 'an earlier whole-period import';
  return `replaced ${parts} (${summary.rowsDeleted} earlier rows), other parts kept`;
}
