#!/usr/bin/env node
// The installed entry point; the CLI itself is compiled into dist/ by `npm run build`.
const { main } = await import('../dist/src/main.js');
await main(process.argv.slice(2));
