import { describe, expect, it } from 'vitest';
import { personIn, type Mention, type Message } from '../../../templates/message.js';
import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../../templates/render/block-kit.js';
import { renderHtml } from '../../../templates/render/html.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';

const carol: Mention = { id: 'U0CAROL', name: 'Carol <Ops> *lead*', group: false, platform: 'slack' };
const dana: Mention = { id: '29:1dana', name: 'Dana Ng', group: false, platform: 'msteams' };
const leads: Mention = { id: 'S0LEADS', name: '@ml-leads', group: true, platform: 'slack' };

const message: Message = {
  summary: `Kept running by ${personIn(carol)}`,
  blocks: [
    { type: 'header', text: `Stopped by ${personIn(dana)}` },
    { type: 'text', text: `**Kept** running by ${personIn(carol)}; ask ${personIn(leads)} or ${personIn(dana)}` },
    { type: 'context', text: `resumed by ${personIn(dana)}` },
    { type: 'facts', facts: [{ label: 'Owner', value: personIn(carol) }] },
  ],
};

describe('people in text', () => {
  it('are Slack mentions for Slack ids, names (escaped) for anyone of another platform', () => {
    const rendered = renderBlockKit(message);
    const json = JSON.stringify(rendered.blocks);
    expect(json).toContain('*Kept* running by <@U0CAROL>; ask <!subteam^S0LEADS> or Dana Ng');
    expect(json).toContain('resumed by Dana Ng');
    expect(json).toContain('Stopped by Dana Ng'); // a header is plain text: the name
    expect(rendered.text).toBe('Kept running by Carol &lt;Ops&gt; *lead*');
    expect(json).not.toContain('⟦');
  });

  it('are Teams <at> mentions listed among the entities for Teams ids, names for the others', () => {
    const card = renderAdaptiveCard(message) as {
      msteams: { entities?: { text: string; mentioned: { id: string } }[] };
      body: { text?: string }[];
    };
    const texts = card.body.map((element) => element.text ?? '').join('\n');
    expect(texts).toContain('running by Carol <Ops> \\*lead\\*; ask @ml-leads or <at>Dana Ng</at>');
    expect(texts).toContain('resumed by <at>Dana Ng</at>');
    // One entity per person mentioned, whatever the number of mentions; nobody of Slack's pinged.
    expect(card.msteams.entities).toEqual([{ type: 'mention', text: '<at>Dana Ng</at>', mentioned: { id: '29:1dana', name: 'Dana Ng' } }]);
    expect(JSON.stringify(card)).not.toContain('⟦');
    expect(JSON.stringify(card)).not.toContain('U0CAROL');
  });

  it('are names on the console and the terminal', () => {
    for (const rendered of [renderPlainText(message), renderHtml(message)]) {
      expect(rendered).toContain('Dana Ng');
      expect(rendered).not.toContain('⟦');
      expect(rendered).not.toContain('U0CAROL');
      expect(rendered).not.toContain('29:1dana');
    }
    expect(renderPlainText(message)).toContain('Kept running by Carol <Ops> *lead*; ask @ml-leads or Dana Ng');
  });

  it('cannot end their token early or smuggle control characters through a name', () => {
    const hostile: Mention = { id: 'U0EVE', name: 'Eve⟧:\u202e\u0007 x\n y', group: false };
    const text = renderPlainText({ summary: '', blocks: [{ type: 'text', text: `by ${personIn(hostile)} end` }] });
    expect(text).toBe('by Eve⟧: x y end');
  });
});
