import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerWorkerCount } from '../../../../src/chat/slack/answer/answer-workers-setting.js';
import { createAnswerer } from '../../../../src/chat/slack/answer/create-answerer.js';
import { WorkerAnswerer } from '../../../../src/chat/slack/answer/worker-answerer.js';
import { dispatch } from '../../../../src/inbound/dispatcher.js';
import { parseConfigText } from '../../../support/config.js';
import { BurnrateError } from '../../../../src/domain/errors.js';
import { testDeps } from '../../../support/deps.js';

describe('how many answer workers', () => {
  const config = (yaml = '') => parseConfigText(yaml);

  it('defaults to one core fewer than the machine has, at least 1 and at most 4', () => {
    expect([1, 2, 3, 8, 64].map((cores) => answerWorkerCount(config(), {}, cores))).toEqual([1, 1, 2, 4, 4]);
  });

  it('takes answers.workers from burnrate.yml, and BURNRATE_ANSWER_WORKERS over it', () => {
    const three = config('answers: { workers: 3 }');
    expect(answerWorkerCount(three, {}, 2)).toBe(3);
    expect(answerWorkerCount(three, { BURNRATE_ANSWER_WORKERS: '0' }, 2)).toBe(0);
    expect(answerWorkerCount(three, { BURNRATE_ANSWER_WORKERS: ' 2 ' }, 2)).toBe(2);
  });

  it.each(['two', '-1', '1.5', '17'])('rejects BURNRATE_ANSWER_WORKERS=%s with what to set instead', (value) => {
    let caught: unknown;
    try {
      answerWorkerCount(config(), { BURNRATE_ANSWER_WORKERS: value }, 2);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BurnrateError);
    expect((caught as BurnrateError).message).toBe(`BURNRATE_ANSWER_WORKERS must be a whole number from 0 to 16, got "${value}"`);
    expect((caught as BurnrateError).hint).toContain('Set it to 0 to answer in process');
  });

  it('rejects a bad answers.workers in burnrate.yml, naming the key', () => {
    expect(() => config('answers: { workers: 2.5 }')).toThrow(/answers\.workers.*whole number/s);
    expect(() => config('answers: { workers: 99 }')).toThrow(/answers\.workers.*at most 16/s);
    expect(() => config('answers: { threads: 2 }')).toThrow(/answers/);
  });

  it('answers in process for a :memory: database or with workers off, so no thread is started', async () => {
    const { deps } = testDeps({});
    for (const [dbPath, env] of [
      [':memory:', {}],
      [join(tmpdir(), 'burnrate-never-opened.db'), { BURNRATE_ANSWER_WORKERS: '0' }],
    ] as const) {
      const answerer = createAnswerer(deps, { dbPath, env, dispatch });
      expect(answerer).not.toBeInstanceOf(WorkerAnswerer);
      expect(answerer.describe()).toBe('answers: computed in process');
      await answerer.close();
    }
  });
});
