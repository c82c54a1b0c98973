import { resolve } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { teamResolver } from '../domain/ownership.js';
import { buildRuntime } from '../main.js';
import { readFocusFiles } from '../sources/focus/read-focus.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import type { Verb } from './io.js';
import { progressBar } from './progress.js';

const USAGE = 'burnrate import focus <file...> [--source ID] [--json]   (CSV, CSV.gz or Parquet)';

/** Imports FOCUS exports: all files or none; a billing period imported again replaces the old one. */
export const importVerb: Verb = async (args, io) => {
  const { values, positionals } = parseVerbArgs(args, { ...COMMON_OPTIONS, source: { type: 'string' }, json: { type: 'boolean' } }, USAGE, true);
  const [format, ...files] = positionals;
  if (format !== 'focus') throw usageError(format ? `unknown import format "${format}"` : 'missing import format', USAGE);
  if (files.length === 0) throw usageError('no files given', USAGE);

  // Read and validate everything before the database is even opened: a bad file writes nothing.
  const { config } = loadConfig(values.config, io.env, io.cwd);
  const bar = progressBar(io.err, 'Importing');
  const started = Date.now();
  const batch = await readFocusFiles(
    files.map((f) => resolve(io.cwd, f)),
    { now: new Date(), tagKeys: config.ownership.tagKeys, unitTagKeys: config.unitCosts.tagKeys, resolveTeam: teamResolver(config.teams), onProgress: bar.update },
    values.source ?? 'focus',
  );
  bar.finish();

  const runtime = buildRuntime({ config, dbPath: values.db, env: io.env, cwd: io.cwd });
  try {
    const { store } = runtime.deps;
    const summary = await store.importBatches([batch]);
    const result = { ...summary, dataThrough: batch.dataThrough, seconds: (Date.now() - started) / 1000 };
    if (values.json) io.out.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const replaced = summary.rowsDeleted > 0 ? `, replacing ${summary.rowsDeleted} earlier rows` : '';
      io.out.write(
        `Imported ${files.length} file(s): ${summary.rowsInserted} daily rows for ${summary.billingPeriods.join(', ') || 'no billing period'}${replaced}; data through ${batch.dataThrough ?? 'n/a'} (${result.seconds.toFixed(1)} s)\n`,
      );
    }
    return 0;
  } finally {
    await runtime.close();
  }
};
