import { describe, expect, it } from 'vitest';
import { cli, workDir } from '../support/run-cli.js';

// The --basis option of spend. What each basis sums is the store's contract: contract/spend.test.ts.

describe('spend by charge day or by invoice', () => {
  it('refuses another basis and says which there are', async () => {
    const result = await cli(['spend', '--basis', 'weekly'], { cwd: workDir() });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--basis must be one of charge, invoice');
  });
});
