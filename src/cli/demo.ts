import { renderPlainText } from '../../templates/render/plain-text.js';
import { budgetAlert } from '../../templates/budget-alert.js';
import { runBudgetCheck } from '../jobs/budget-check.js';
import { refreshSources } from '../jobs/refresh-sources.js';
import { buildRuntime } from '../runtime.js';
import { demoConfig } from '../providers/demo/demo-config.js';
import { COMMON_OPTIONS, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.demo.usage;

/** Loads the demo organisation into the database, runs the checks and prints what it would post. */
export const demoVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { db: COMMON_OPTIONS.db }, USAGE);
  // The demo ignores any burnrate.yml: it is always the embedded organisation.
  const runtime = await buildRuntime({
    config: demoConfig({ cluster: true }),
    chatPlatforms: false,
    dbPath: values.db,
    env: io.env,
    cwd: io.cwd,
    ...(io.clock ? { clock: io.clock } : {}),
  });
  try {
    const { deps } = runtime;
    const [result] = await refreshSources(deps);
    io.out.write(`Demo organisation loaded: ${deps.config.teams.length} teams, ${result?.summary?.rowsInserted ?? 0} daily spend rows.\n`);
    const check = await runBudgetCheck(deps);
    for (const alert of check.alerts) {
      const team = deps.config.teams.find((t) => t.id === alert.finding.team);
      io.out.write(`\n${renderPlainText(budgetAlert({ ...alert, teamName: team?.name ?? alert.finding.team }))}\n`);
    }
    io.out.write(`\n${check.findings.length} findings (${check.alerts.length} new alerts). Try: burnrate spend --by team\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};
