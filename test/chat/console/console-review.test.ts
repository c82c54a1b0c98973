import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectedAnswerLabels } from '../../support/review-answers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleChat } from '../../../src/chat/console/console-chat.js';
import { createConsoleRoutes } from '../../../src/chat/console/console-server.js';
import { dispatch } from '../../../src/inbound/dispatcher.js';
import type { Deps } from '../../../src/deps.js';
import { startHttpServer } from '../../../src/http/server.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import { buildSources } from '../../../src/providers/registry.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { testDeps } from '../../support/deps.js';
import { CAROL, DAN } from '../../support/demo-org.js';

describe('the monthly review in the console', () => {
  let deps: Deps;
  let server: Server;
  let base: string;
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify(body) });

  beforeAll(async () => {
    deps = testDeps(demoConfig(), '2026-12-02T10:00:00Z').deps;
    deps.sources = buildSources(deps.config).spend;
    const chat = new ConsoleChat(deps.store.console, deps.clock);
    deps.chat = [chat];
    await refreshSources(deps);
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      routes: createConsoleRoutes(deps, { chat, settings: { enabled: true, token: null, loopback: true }, dispatch }),
      health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('typed as a command, posts the thread with the chart inline; the owner picker works from the page', async () => {
    const typed = await post('/console/command', { as: CAROL, channel: 'llm-training', text: 'review 2026-11' });
    const said = await typed.text();
    expect(said).toBe('{"ok":true}');
    await deliverOutbox(deps);
    await deliverOutbox(deps);
    const page = (await (await fetch(`${base}/console/messages?channel=llm-training&as=${CAROL}`)).json()) as { html: string };
    expect(page.html).toContain('LLM Training: cost review of November 2026');
    expect(page.html).toMatch(/<img src="data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/]+=*" alt="Stacked bar chart of LLM Training/);
    // Move to spot only on the lines it fits (instances on demand), by the review's own lines.
    const lines = await deps.store.reviews.lines('llm-training', '2026-11');
    expect(lines).toHaveLength(10);
    const spotLines = lines.filter((l) => expectedAnswerLabels(l).includes('Move to spot')).length;
    expect(page.html.match(/data-action="review\.answer:spot"/g)?.length ?? 0).toBe(spotLines);

    const stream = await deps.store.console.list('llm-training', CAROL);
    const line = stream.find((m) => m.message.summary.startsWith('#1 '))!;
    const select = line.message.blocks.find((b) => b.type === 'actions')!;
    const danValue = select.type === 'actions' ? select.select!.options.find((o) => o.label === DAN)!.value : '';
    expect((await post('/console/action', { as: CAROL, action: 'review.owner', value: danValue, messageId: line.id })).status).toBe(200);
    // The owner is a person in the message (drawn as a name or a mention by each platform), not a raw id.
    expect(JSON.stringify((await deps.store.console.get(line.id))!.message)).toMatch(new RegExp(`Owner: ⟦p:0:[^⟧]*${DAN}`));
    const refused = await post('/console/action', {
      as: CAROL,
      action: 'review.owner',
      value: JSON.stringify({ line: 1, owner: 'U0DEMOALICE' }),
      messageId: line.id,
    });
    expect(refused.status).toBe(400); // not an option on that message: never dispatched
  });
});
