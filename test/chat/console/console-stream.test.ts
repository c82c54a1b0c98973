import { describe, expect, it } from 'vitest';
import { renderStream } from '../../../src/chat/console/console-stream.js';
import type { ConsoleMessage } from '../../../src/store/console-messages.js';
import { ALICE } from '../../support/demo-org.js';

const AT = '2026-12-02T10:00:00.000Z';
const echo = (author: string): ConsoleMessage => ({
  id: 1,
  channel: 'ml-research',
  parentId: null,
  privateTo: author,
  author,
  message: { summary: '/burnrate spend', blocks: [{ type: 'text', text: '/burnrate spend' }] },
  createdAt: AT,
  updatedAt: AT,
});
const channel = { id: 'ml-research', name: 'ML Research', topic: '' };

describe('the console stream', () => {
  it('names the person who typed a command, with their initial, and never shows their user id where a name is known', () => {
    const html = renderStream([echo(ALICE)], channel, 'slack', (id) => (id === ALICE ? 'Alice Martin' : undefined));
    expect(html).toContain('<span class="msg-author">Alice Martin</span>');
    expect(html).toContain('<div class="avatar" aria-hidden="true">A</div>');
    expect(html).not.toContain(ALICE);
  });

  it('shows the id only where no name is known', () => {
    expect(renderStream([echo('U0STRANGER')], channel)).toContain('<span class="msg-author">U0STRANGER</span>');
  });
});
