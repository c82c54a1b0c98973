#!/usr/bin/env node
// The installed entry point; the CLI itself is compiled into dist/ by `npm run build`.
const { runCli } = await import('../dist/src/cli.js');
process.exitCode = await runCli(process.argv.slice(2));
