// `node --import ./report-heap-spaces.mjs ...` with HEAP_SPACES_FILE=<file>: at exit the file gets
// V8's heap spaces (name, size and used bytes) as JSON. Test-only, like record-loaded-modules.mjs.
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.HEAP_SPACES_FILE;
if (file) process.on('exit', () => writeFileSync(file, JSON.stringify(getHeapSpaceStatistics())));
