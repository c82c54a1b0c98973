import { describe, expect, it } from 'vitest';
import { commitmentCovers } from '../../../src/checks/waste/prepaid-share.js';

// Which share of a machine's bill a commitment paid, and what the commitment is, from bill rows
// written here; each expected share is the plain sum of the covered rows over all of them.
const SP = 'arn:aws:savingsplans::123456789012:savingsplan/sp-0gpu';
const RI = 'arn:aws:ec2:us-east-1:123456789012:reserved-instances/ri-0abc';
const CUD = 'projects/p/regions/us-central1/commitments/gpu-cud';

describe('commitment covers', () => {
  it('gives each machine the covered part of its cost as a share, named by the commitment that paid most of it', () => {
    const rows = [
      { resourceId: 'i-sp', cost: 11.52, commitmentId: SP },
      { resourceId: 'i-sp', cost: 6.06, commitmentId: null },
      { resourceId: 'i-ri', cost: 3, commitmentId: RI },
      { resourceId: 'i-ri', cost: 1, commitmentId: SP },
      { resourceId: 'vm-cud', cost: 5, commitmentId: CUD },
      { resourceId: 'i-od', cost: 24.14, commitmentId: null },
    ];
    const covers = commitmentCovers(rows);
    expect(covers.get('i-sp')).toEqual({ share: 11.52 / (11.52 + 6.06), by: 'Savings Plan' });
    expect(covers.get('i-ri')).toEqual({ share: 1, by: 'reservation' });
    expect(covers.get('vm-cud')).toEqual({ share: 1, by: 'commitment' });
    expect(covers.has('i-od')).toBe(false);
  });

  it('leaves out a machine whose covered rows cost nothing (a credit netted it to zero)', () => {
    expect(commitmentCovers([{ resourceId: 'i-0', cost: 0, commitmentId: SP }]).size).toBe(0);
  });
});
