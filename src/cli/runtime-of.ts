import { buildRuntime, type Runtime } from '../runtime.js';
import type { CliIo } from './io.js';

/**
 * The runtime of a data command: its `--config` and `--db`, the CLI's environment, folder and
 * clock. `chatPlatforms: false` for commands that only read (nothing they do is sent anywhere).
 */
export function runtimeOf(
  values: { config?: string | undefined; db?: string | undefined },
  io: CliIo,
  options: { chatPlatforms?: boolean } = {},
): Promise<Runtime> {
  return buildRuntime({
    configPath: values.config,
    dbPath: values.db,
    env: io.env,
    cwd: io.cwd,
    ...options,
    ...(io.clock ? { clock: io.clock } : {}),
  });
}
