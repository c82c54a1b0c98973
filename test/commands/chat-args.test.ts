import { describe, expect, it } from 'vitest';
import { readChatArgs } from '../../commands/chat-args.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';

const config = demoConfig();
const problems = (words: string, visible?: string[]) => readChatArgs(config, words.split(' '), '2026-12-04', visible).problems;

describe('chat arguments that are not understood', () => {
  it('name the argument and suggest the nearest valid value', () => {
    expect(problems('last-moth')).toEqual(['"last-moth" is not a period: did you mean last-month?']);
    expect(problems('by servce')).toEqual(['"servce" is not a way to split spend: did you mean service?']);
    expect(problems('ml-reserch')).toEqual([
      '"ml-reserch" is not a team you can see, a period or a way to split spend: did you mean ml-research?',
    ]);
  });

  it('say what a split can be after "by", and the teams the user can see for anything else', () => {
    expect(problems('by gpu')).toEqual([
      '"gpu" is not a way to split spend: use team, service, resource, day, provider, namespace, workload or a tag column such as x_UsageType.',
    ]);
    expect(problems('nosuchteam', ['ml-research', 'vision'])).toEqual([
      '"nosuchteam" is not a team you can see, a period or a way to split spend: your teams: ml-research, vision; periods: this-month, last-month, this-week, last-week, YYYY-MM, YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD.',
    ]);
    // A team the user cannot see is not suggested to them.
    expect(problems('llm-trainin', ['ml-research'])[0]).not.toContain('llm-training');
  });

  it('say that a range is reversed rather than unknown', () => {
    expect(problems('2026-11-15..2026-11-01')).toEqual([
      'period "2026-11-15..2026-11-01" ends before it starts: Write the earlier day first, e.g. 2026-11-01..2026-11-15.',
    ]);
  });

  it('take this-week and last-week', () => {
    expect(readChatArgs(config, ['last-week'], '2026-12-04').period).toEqual({ start: '2026-11-23', end: '2026-11-30' });
    expect(problems('this-week ml-research by service')).toEqual([]);
  });
});
