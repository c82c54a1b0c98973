// The demo organisation (src/providers/demo/demo-config.ts) as tests address it: its people, its
// channels and its teams. Written here once so a test says who clicks and where, not the ids.

/** Holds every role. */
export const ADMIN = 'U0DEMOADMIN';
/** Owns ml-research (not an approver). */
export const ALICE = 'U0DEMOALICE';
/** Approves ml-research. */
export const BOB = 'U0DEMOBOB';
/** Owns llm-training. */
export const CAROL = 'U0DEMOCAROL';
/** Approves llm-training. */
export const DAN = 'U0DEMODAN';
/** In no team and no role. */
export const STRANGER = 'U0STRANGER';

/** ml-research's Slack channel. */
export const RESEARCH_CHANNEL = 'C0DEMORSRCH';
/** llm-training's Slack channel. */
export const LLM_CHANNEL = 'C0DEMOLLMTR';
/** Every team's Slack channel, in the order of the demo's teams. */
export const DEMO_CHANNELS: readonly string[] = [RESEARCH_CHANNEL, LLM_CHANNEL, 'C0DEMOINFER', 'C0DEMOVISON'];

/**
 * The demo's two training teams as the cloud sources' tests configure them: no budget, no
 * channel, matched by the fragment their accounts, projects, labels and budget names carry.
 * A fresh copy each call, so a test may change its own.
 */
export function demoTeams() {
  return [
    { id: 'ml-research', match: ['research'] },
    { id: 'llm-training', match: ['llm'] },
  ];
}
