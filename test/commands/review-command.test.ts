import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { buildSources } from '../../src/providers/registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { testDeps } from '../support/deps.js';
import { command } from '../support/recording-reply.js';

describe('/burnrate review', () => {
  it('posts a team’s review in its channel once; a second ask says it was posted; outsiders are refused', async () => {
    const { deps } = testDeps(demoConfig(), '2026-12-02T10:00:00Z');
    deps.sources = buildSources(deps.config).spend;
    await refreshSources(deps);

    const first = command('U0DEMOCAROL', 'review 2026-11');
    await dispatch(deps, first);
    expect(first.reply.text()).toBe(
      'Posting the November 2026 review of LLM Training in its channel: the summary, the chart and 10 cost lines to answer in its thread.',
    );
    const queued = await deps.store.outbox.due(deps.clock());
    expect(queued.map((i) => i.dedupeKey)).toEqual(['review:llm-training:2026-11:root:fake']);

    const again = command('U0DEMODAN', 'review llm-training 2026-11');
    await dispatch(deps, again);
    expect(again.reply.text()).toBe(
      'The November 2026 review of LLM Training was posted before: nothing is posted twice. Its thread has the 10 cost lines.',
    );

    const audit = (await deps.store.audit.list()).sort((a, b) => a.id - b.id);
    expect(audit.map((a) => [a.userId, a.action, a.subject, a.result])).toEqual([
      ['U0DEMOCAROL', 'review', 'review:llm-training:2026-11', 'ok'],
      ['U0DEMODAN', 'review', 'review:llm-training:2026-11', 'duplicate'],
    ]);

    const outsider = command('U0DEMOALICE', 'review llm-training');
    await dispatch(deps, outsider);
    expect(outsider.reply.text()).toContain('you are not a member of team "llm-training"');

    const admin = command('U0DEMOADMIN', 'review');
    await dispatch(deps, admin);
    expect(admin.reply.text()).toContain('You are in several teams');
    const typo = command('U0DEMOCAROL', 'review 2026-13');
    await dispatch(deps, typo);
    expect(typo.reply.text()).toContain('"2026-13" is not a month');
  });
});
