// `node --import ./peak-rss-on-exit.js ...` with PEAK_RSS_FILE=<file>: the file gets the process's
// peak resident set size in KiB as it exits. Loaded the same way into burnrate and its floors, so
// each pays the same for it.
import { writeFileSync } from 'node:fs';

const file = process.env.PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
