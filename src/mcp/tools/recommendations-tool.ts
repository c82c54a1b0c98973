import { recommendationList } from '../../../templates/recommendation-list.js';
import { currentRecommendations } from '../../snapshots/current-recommendations.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, defineTool, teamArg, textOf } from './tool.js';

export const recommendationsTool = defineTool({
  name: 'recommendations',
  title: 'Recommendations',
  description: 'Right-size and spot recommendations now, each with its monthly saving and evidence (`burnrate recommend --json`).',
  input: { team: teamArg },
  output: { recommendations: 'one per instance: kind, team, instance, monthly saving, evidence' },
  async run(caller, args) {
    const { team, teams, whole } = askedScope(caller, args.team);
    const all = await currentRecommendations(caller.deps, team ? { team } : {});
    const recommendations = whole ? all : all.filter((r) => teams.includes(r.team));
    return {
      data: asJson({ recommendations }),
      summary: textOf(recommendationList(recommendations, teams.length === 1 ? teams[0]! : 'your teams')),
    };
  },
});
