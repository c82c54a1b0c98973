import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../support/config.js';
import { BurnrateError } from '../../src/domain/errors.js';

function problemOf(text: string): string {
  try {
    parseConfigText(text);
  } catch (error) {
    expect(error).toBeInstanceOf(BurnrateError);
    return (error as BurnrateError).describe();
  }
  throw new Error('expected the configuration to be refused');
}

const team = (extra: string) => `
teams:
  - id: llm-training
${extra}
`;

describe('recommendation, spot and sweep settings', () => {
  it("have defaults, and take a team's sweep caps", () => {
    const config = parseConfigText(team('    sweepCaps: { spend: 2000, gpuHours: 800 }'));
    expect(config.recommendations).toMatchObject({
      lookbackDays: 7,
      hoursPerMonth: 730,
      rightSize: { maxMeanUtil: 30, maxMemoryShare: 0.5, headroom: 1.2 },
    });
    expect(config.spot).toEqual({
      maxCheckpointMinutes: 30,
      interruptionsPerMonth: 2,
      restartMinutes: 10,
      secondApproverAbove: 5000,
      ownersApprove: false,
    });
    expect(config.sweeps).toEqual({ tagKey: 'sweep', windowHours: 168 });
    expect(config.teams[0]!.sweepCaps).toEqual({ spend: 2000, gpuHours: 800 });
  });

  it('say exactly what is wrong', () => {
    expect(problemOf(team('    sweepCaps: {}'))).toContain('teams[0].sweepCaps: expected spend, gpuHours or both');
    expect(problemOf(team('    sweepCaps: { spend: "2k" }'))).toContain('teams[0].sweepCaps.spend: expected an amount');
    expect(problemOf(team('    sweepCaps: { dollars: 5 }'))).toContain('dollars');
    expect(problemOf('spot: { maxCheckpointMinutes: 0 }')).toContain('spot.maxCheckpointMinutes: expected minutes above 0');
    expect(problemOf('spot: { secondApprover: 10 }')).toContain('secondApprover');
    expect(problemOf('recommendations: { rightSize: { maxMemoryShare: 2 } }')).toContain(
      'recommendations.rightSize.maxMemoryShare: expected a share of at most 1',
    );
    expect(problemOf('sweeps: { windowHours: -1 }')).toContain('sweeps.windowHours: expected hours above 0');
  });
});
