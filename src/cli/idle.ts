import { renderPlainText } from '../../templates/render/plain-text.js';
import { idleStatus } from '../../templates/idle-status.js';
import { resolveTeamId } from '../../commands/team-arg.js';
import { runGpuCheck } from '../jobs/gpu-check.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { jsonText } from '../domain/json-text.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.idle.usage;

/** Idle GPU instances right now, with idle time and cost; records nothing and alerts nobody. */
export const idleVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, team: { type: 'string' }, json: { type: 'boolean' } }, USAGE);
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const { config } = runtime.deps;
    const teams = values.team ? [resolveTeamId(config, values.team)] : undefined;
    const result = await runGpuCheck(runtime.deps, { dryRun: true, ...(teams ? { teams } : {}) });
    const idle = result.findings.filter((f) => f.state !== 'resolved').map(({ state: _s, ...f }) => f);
    if (values.json) {
      io.out.write(`${jsonText({ idle, kept: result.kept, noMetrics: result.noMetrics, unavailable: result.unavailable })}\n`);
      return 0;
    }
    io.out.write(`${renderPlainText(idleStatus(idle, teams ? teams[0]! : 'all teams', result.noMetrics, result.unavailable))}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};
