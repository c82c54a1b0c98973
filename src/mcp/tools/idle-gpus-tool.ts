import { idleStatus } from '../../../templates/idle-status.js';
import { runGpuCheck } from '../../jobs/gpu-check.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, defineTool, teamArg, textOf } from './tool.js';

export const idleGpusTool = defineTool({
  name: 'idle_gpus',
  title: 'Idle GPUs',
  description:
    'GPU instances and Kubernetes workloads idle right now, with how long, the cost burned while idle, the cost per day and the owner; those kept running by someone; GPUs that send no metrics. Records nothing and alerts nobody (`burnrate idle --json`).',
  input: { team: teamArg },
  output: {
    idle: 'idle instances and workloads: instanceId, name, team, owner, since, idleMinutes, burned, perDay, protected',
    kept: 'idle but kept running by someone (a Keep on the alert)',
    noMetrics: 'GPU instances that sent no metrics over the window',
    unavailable: 'inventory sources that could not be read this time (source, error): their machines are not checked, not gone',
  },
  async run(caller, args) {
    const { teams } = askedScope(caller, args.team);
    const result = await runGpuCheck(caller.deps, { dryRun: true, teams });
    const idle = result.findings.filter((f) => f.state !== 'resolved').map(({ state: _s, ...f }) => f);
    return {
      data: asJson({ idle, kept: result.kept, noMetrics: result.noMetrics, unavailable: result.unavailable }),
      summary: textOf(idleStatus(idle, teams.length === 1 ? teams[0]! : 'your teams', result.noMetrics, result.unavailable)),
    };
  },
});
