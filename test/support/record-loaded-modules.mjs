// `node --import ./record-loaded-modules.mjs ...` with RECORD_LOADED_MODULES=<file>: the file gets
// every module file the process loaded, one path a line (ES modules as the loader sees them,
// CommonJS files from require's cache at exit). Test-only: it lets a test see what a command pulls
// in without a hook in burnrate itself.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const record = process.env.RECORD_LOADED_MODULES;

if (record && isMainThread) {
  register(import.meta.url);
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () =>
    appendFileSync(
      record,
      Object.keys(cache)
        .map((path) => `${path}\n`)
        .join(''),
    ),
  );
}

/** The loader hook (run on the loader's own thread): each ES module or CommonJS file imported from one. */
export async function load(url, context, nextLoad) {
  if (record && url.startsWith('file:')) appendFileSync(record, `${fileURLToPath(url)}\n`);
  return nextLoad(url, context);
}
