import type { FakeStudioApp, FakeStudioDomain, FakeStudioSpace } from '../../../fakes/fake-sagemaker.js';

// A Studio account as tests read it, in eu-west-1: one domain with idle shutdown on (JupyterLab 60
// minutes by default, users may choose 60-240; Code Editor 90), one with it off; GPU apps idle, busy
// and in Studio Classic, a CPU app and a deleted GPU app. Times are hours before NOW.

export const NOW = '2026-11-21T12:00:00Z';
const hoursAgo = (h: number) => new Date(Date.parse(NOW) - h * 3_600_000).toISOString();

export const DOMAINS: FakeStudioDomain[] = [
  {
    id: 'd-shutdownon01',
    region: 'eu-west-1',
    jupyterLab: { LifecycleManagement: 'ENABLED', IdleTimeoutInMinutes: 60, MinIdleTimeoutInMinutes: 60, MaxIdleTimeoutInMinutes: 240 },
    codeEditor: { LifecycleManagement: 'ENABLED', IdleTimeoutInMinutes: 90 },
  },
  { id: 'd-shutdownoff1', region: 'eu-west-1' },
];

export const SPACES: FakeStudioSpace[] = [
  { domainId: 'd-shutdownoff1', name: 'alice-lab', tags: { team: 'research', 'burnrate:owner': 'U0ALICE' } },
  { domainId: 'd-shutdownon01', name: 'bob-lab', idleTimeoutInMinutes: 120, tags: { team: 'research' } },
  { domainId: 'd-shutdownon01', name: 'carol-code', tags: { team: 'research' } },
  { domainId: 'd-shutdownoff1', name: 'dan-cpu' },
];

export const ALICE: FakeStudioApp = {
  domainId: 'd-shutdownoff1',
  space: 'alice-lab',
  type: 'JupyterLab',
  instanceType: 'ml.g5.xlarge',
  created: hoursAgo(10),
  lastUserActivity: hoursAgo(5),
};
export const BOB: FakeStudioApp = {
  domainId: 'd-shutdownon01',
  space: 'bob-lab',
  type: 'JupyterLab',
  instanceType: 'ml.g5.2xlarge',
  created: hoursAgo(8),
  lastUserActivity: hoursAgo(3),
};
export const CAROL: FakeStudioApp = {
  domainId: 'd-shutdownon01',
  space: 'carol-code',
  type: 'CodeEditor',
  instanceType: 'ml.g6.xlarge',
  created: hoursAgo(4),
  lastUserActivity: hoursAgo(10 / 60),
};
export const DAN_CPU: FakeStudioApp = {
  domainId: 'd-shutdownoff1',
  space: 'dan-cpu',
  type: 'JupyterLab',
  instanceType: 'ml.t3.medium',
  created: hoursAgo(30),
  lastUserActivity: hoursAgo(20),
};
export const DELETED: FakeStudioApp = {
  domainId: 'd-shutdownon01',
  space: 'bob-lab',
  type: 'JupyterLab',
  name: 'yesterday',
  status: 'Deleted',
  instanceType: 'ml.p4d.24xlarge',
  created: hoursAgo(30),
};
export const ERIN_CLASSIC: FakeStudioApp = {
  domainId: 'd-shutdownoff1',
  userProfile: 'erin',
  type: 'KernelGateway',
  name: 'pytorch-gpu',
  instanceType: 'ml.g4dn.xlarge',
  created: hoursAgo(6),
  lastUserActivity: hoursAgo(2),
  tags: { team: 'research' },
};

/** Fresh copies: a test that deletes an app changes its status. */
export function studioApps(): FakeStudioApp[] {
  return [ALICE, BOB, CAROL, DAN_CPU, DELETED, ERIN_CLASSIC].map((a) => ({ ...a }));
}
