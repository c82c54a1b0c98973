import { recommendationList } from '../../../templates/recommendation-list.js';
import { loadRecommendations } from '../../snapshots/current-recommendations.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, defineTool, teamArg, textOf } from './tool.js';

export const recommendationsTool = defineTool({
  name: 'recommendations',
  title: 'Recommendations',
  description: 'Right-size and spot recommendations now, each with its monthly saving and evidence (`burnrate recommend --json`).',
  input: { team: teamArg },
  output: {
    recommendations: 'one per instance: kind, team, instance, monthly saving, evidence',
    unavailable:
      'inventory sources that could not be read this time (source, error): their machines get no recommendation, not none needed',
  },
  async run(caller, args) {
    const { team, teams, whole } = askedScope(caller, args.team);
    const read = await loadRecommendations(caller.deps, team ? { team } : {});
    const recommendations = whole ? read.recommendations : read.recommendations.filter((r) => teams.includes(r.team));
    return {
      data: asJson({ recommendations, unavailable: read.unavailable }),
      summary: textOf(recommendationList(recommendations, teams.length === 1 ? teams[0]! : 'your teams', read.unavailable)),
    };
  },
});
