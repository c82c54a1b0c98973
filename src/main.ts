import { runCli } from './cli/run-cli.js';
import { sizeYoungGenerationFor } from './cli/young-generation.js';

/**
 * The process entry point: runs one `burnrate` invocation and sets the exit code. Everything is
 * wired by the runtime (runtime.ts) and the command (cli/); nothing is decided here.
 */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  sizeYoungGenerationFor(argv[0]);
  process.exitCode = await runCli(argv);
}
