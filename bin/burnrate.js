#!/usr/bin/env node
// The installed entry point; the CLI itself is compiled into dist/ by `npm run build`.
// V8 keeps the compiled code of burnrate's modules on disk (Node's compile cache, in the system's
// temporary folder unless NODE_COMPILE_CACHE names one): every later start skips compiling them.
(await import('node:module')).enableCompileCache?.();
const { main } = await import('../dist/src/main.js');
await main(process.argv.slice(2));
