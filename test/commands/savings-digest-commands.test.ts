import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { buildSources } from '../../src/providers/registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { testDeps } from '../support/deps.js';
import { command } from '../support/recording-reply.js';
import { ADMIN, ALICE, CAROL } from '../support/demo-org.js';

/** The demo organisation on Wednesday 2 December 2026, its bill imported. */
async function demo() {
  const { deps } = testDeps(demoConfig(), '2026-12-02T10:00:00Z');
  deps.sources = buildSources(deps.config).spend;
  await refreshSources(deps);
  return deps;
}

async function ask(deps: Awaited<ReturnType<typeof demo>>, userId: string, text: string): Promise<string> {
  const interaction = command(userId, text);
  await dispatch(deps, interaction);
  expect(interaction.reply.privates).toHaveLength(1);
  return renderPlainText(interaction.reply.privates[0]!);
}

describe('/burnrate savings and /burnrate digest answer instead of "Unknown command"', () => {
  it('savings: the month of the caller’s team from the savings ledger, a month asked for, and bad input refused with the usage', async () => {
    const deps = await demo();
    const now = await ask(deps, CAROL, 'savings');
    expect(now).not.toContain('Unknown command');
    expect(now).toContain('Savings 2026-12 for llm-training: $0.00 confirmed, $0.00 expected');
    expect(now).toContain('No action taken through burnrate counts in this month yet.');
    expect(await ask(deps, CAROL, 'savings 2026-11')).toContain('Savings 2026-11 for llm-training');
    expect(await ask(deps, ALICE, 'savings llm-training')).toContain('you are not a member of team "llm-training"');
    expect(await ask(deps, CAROL, 'savings a b c')).toContain('Usage: /burnrate savings [team] [YYYY-MM]');
  });

  it('digest: a preview of the team’s digest, daily by default and the last Monday’s weekly when asked, saying when the channel gets it', async () => {
    const deps = await demo();
    const daily = await ask(deps, CAROL, 'digest');
    expect(daily).not.toContain('Unknown command');
    expect(daily).toContain('LLM Training: yesterday, 1 Dec');
    expect(daily).toMatch(/Preview, only you see it\. (This team gets no digest|The team's channel gets it)/);
    // Wednesday 2 December: the weekly digest that went out on Monday 30 November covers 23–29 November.
    expect(await ask(deps, CAROL, 'digest weekly')).toContain('LLM Training: last week, 23 Nov – 29 Nov');
    expect(await ask(deps, CAROL, 'digest llm-training hourly')).toContain('Usage: /burnrate digest [team] [daily|weekly]');
    expect(await ask(deps, ADMIN, 'digest')).toContain('You are in several teams: name one');
  });
});
