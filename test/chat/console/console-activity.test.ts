import { describe, expect, it } from 'vitest';
import { busiestChannel, latestIds } from '../../../src/chat/console/console-activity.js';
import { consoleChannels } from '../../../src/chat/console/console-directory.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';

// The demo's channels: ml-research, llm-training, inference, vision, _unowned, @home, @dm.
const channels = consoleChannels(demoConfig());
const activity = (counts: Record<string, number>) =>
  new Map(Object.entries(counts).map(([channel, messages], i) => [channel, { messages, latestId: 100 + i }]));

describe('where the console opens', () => {
  it('is the channel with the most messages; a tie goes to the team listed first', () => {
    expect(busiestChannel(channels, activity({ 'ml-research': 3, vision: 9, inference: 4 }))).toBe('vision');
    expect(busiestChannel(channels, activity({ vision: 5, inference: 5, 'llm-training': 2 }))).toBe('inference');
    expect(busiestChannel(channels, activity({ _unowned: 1 }))).toBe('_unowned');
  });

  it('is never Home or the direct messages, and the first team when nothing was posted', () => {
    expect(busiestChannel(channels, activity({ '@dm': 40, inference: 1 }))).toBe('inference');
    expect(busiestChannel(channels, activity({ '@dm': 40 }))).toBe('ml-research');
    expect(busiestChannel(channels, new Map())).toBe('ml-research');
  });

  it('gives the page the newest message id of every channel, 0 where there is none', () => {
    expect(latestIds(channels, activity({ vision: 2, '@dm': 1 }))).toEqual({
      'ml-research': 0,
      'llm-training': 0,
      inference: 0,
      vision: 100,
      _unowned: 0,
      '@home': 0,
      '@dm': 101,
    });
  });
});
