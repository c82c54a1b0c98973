import { renderPlainText } from '../../templates/render/plain-text.js';
import { recommendationList } from '../../templates/recommendation-list.js';
import { resolveTeamId } from '../../commands/team-arg.js';
import { runtimeOf } from './runtime-of.js';
import { loadRecommendations } from '../snapshots/current-recommendations.js';
import { COMMON_OPTIONS, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { jsonText } from '../domain/json-text.js';
import { refreshSources } from '../jobs/refresh-sources.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.recommend.usage;

/** Right-size and spot recommendations now, with their evidence (--json); changes nothing. */
export const recommendVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, team: { type: 'string' }, json: { type: 'boolean' } }, USAGE);
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    // A spot saving is priced on the bill (the waste diagnosis's figure): read it first into an empty store, as waste does.
    if (await runtime.deps.store.isEmpty()) await refreshSources(runtime.deps);
    const team = values.team ? resolveTeamId(runtime.deps.config, values.team) : undefined;
    const { recommendations, unavailable } = await loadRecommendations(runtime.deps, team ? { team } : {});
    if (values.json) {
      io.out.write(`${jsonText({ recommendations, unavailable })}\n`);
      return 0;
    }
    io.out.write(`${renderPlainText(recommendationList(recommendations, team ?? 'all teams', unavailable))}\n`);
    for (const r of recommendations)
      io.out.write(`\n${r.name ?? r.instanceId} (${r.kind}):\n${r.evidence.map((e) => `  - ${e}`).join('\n')}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};
