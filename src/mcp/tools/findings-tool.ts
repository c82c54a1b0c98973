import { openFindings } from '../../snapshots/open-alerts.js';
import { answeredFindings } from '../finding-answers.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, defineTool, teamArg } from './tool.js';

export const findingsTool = defineTool({
  name: 'findings',
  title: 'Open alerts and who answered them',
  description:
    'Every open alert of your teams, of every kind (budget, idle GPUs, runaway sweeps, spend anomalies): what it is about, since when, and who answered it how (acknowledged, snoozed, kept running, stopped, expected or not, proposed by an assistant). The alerts App Home counts.',
  input: { team: teamArg },
  output: {
    findings: 'one per open alert: family, kind, id, team, label, since, lastSeen, answers (answer, by, at, until, proposal)',
    teams: 'the teams covered (null: every team and alerts of no team, for an admin)',
  },
  async run(caller, args) {
    const { teams, whole } = askedScope(caller, args.team);
    // An admin asking for everything also sees alerts of no team, as App Home's admin view does.
    const scope = whole ? null : teams;
    const open = await openFindings(caller.deps, scope);
    const findings = await answeredFindings(caller.deps, open, caller.now);
    findings.sort((a, b) => a.since.localeCompare(b.since) || a.id.localeCompare(b.id));
    const unanswered = findings.filter((f) => f.answers.length === 0).length;
    const lines = findings.map(
      (f) =>
        `- ${f.family} ${f.label} (${f.team ?? 'no team'}, since ${f.since})${
          f.answers.length === 0 ? ': no answer yet' : `: ${f.answers.map((a) => `${a.answer} by ${a.by}`).join(', ')}`
        }`,
    );
    return {
      data: asJson({ findings, teams: scope }),
      summary: [`${findings.length} open alert${findings.length === 1 ? '' : 's'}, ${unanswered} without an answer.`, ...lines].join('\n'),
    };
  },
});
