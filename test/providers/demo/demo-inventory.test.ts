import { describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import { isProtected, workloadOf } from '../../../src/domain/gpu-inventory.js';
import { teamResolver } from '../../../src/domain/ownership.js';
import { UNMAPPED, UNTAGGED } from '../../../src/domain/spend.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { demoFleet } from '../../../src/providers/demo/demo-fleet.js';
import { demoInventory } from '../../../src/providers/demo/demo-inventory.js';
import { multiNodeInstances } from '../../../src/checks/recommend/recommend.js';

const resolveTeam = teamResolver(demoConfig().teams);
const inventory = demoInventory(42, resolveTeam);
const byName = (name: string) => {
  const found = inventory.find((i) => i.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
};

describe('workloadOf / isProtected', () => {
  it('reads the workload tag, keys compared like ownership tags', () => {
    expect(workloadOf({ workload: 'training' })).toBe('training');
    expect(workloadOf({ ' Workload ': 'Inference' })).toBe('inference');
    expect(workloadOf({ WORKLOAD: 'serving' })).toBe('inference');
    expect(workloadOf({ 'burnrate:workload': 'sweep', workload: 'training' })).toBe('sweep');
    expect(workloadOf({ workload: 'Jupyter' })).toBe('notebook');
    expect(workloadOf({ workload: 'etl' })).toBe('unknown');
    expect(workloadOf({ workload: '  ' })).toBe('unknown');
    expect(workloadOf({})).toBe('unknown');
    expect(workloadOf(null)).toBe('unknown');
  });

  it('is protected only by burnrate:protect=true', () => {
    expect(isProtected({ 'burnrate:protect': 'true' })).toBe(true);
    expect(isProtected({ 'Burnrate:Protect': ' TRUE ' })).toBe(true);
    expect(isProtected({ 'burnrate:protect': 'false' })).toBe(false);
    expect(isProtected({ 'burnrate:protect': 'yes' })).toBe(false);
    expect(isProtected({ protect: 'true' })).toBe(false);
    expect(isProtected(undefined)).toBe(false);
  });
});

describe('demoInventory', () => {
  it('has one record per demo instance, deterministic for the seed', () => {
    const fleet = demoFleet(42);
    expect(inventory.map((i) => i.instanceId)).toEqual(fleet.map((i) => i.instanceId));
    expect(demoInventory(42, resolveTeam)).toEqual(inventory);
    expect(demoInventory(42, resolveTeam, { fleet })).toEqual(inventory);
    expect(demoInventory(43, resolveTeam).map((i) => i.instanceId)).not.toEqual(inventory.map((i) => i.instanceId));
  });

  it('carries type, GPUs and the catalog price (spot price for spot instances)', () => {
    const catalog = loadPriceCatalog();
    for (const i of inventory) {
      const price = catalog.priceOf(i.provider, i.instanceType, i.region);
      expect(price, i.instanceType).toBeDefined();
      expect(i.gpuModel).toBe(price!.gpuModel);
      expect(i.gpuCount).toBe(price!.gpuCount);
      expect(i.gpuMemoryGiB).toBe(price!.gpuMemoryGiB);
      expect(i.hourlyPrice).toBe(i.lifecycle === 'spot' ? price!.spotHourly : price!.onDemandHourly);
    }
    const a3 = byName('llm-pretrain-a3-0');
    expect(a3).toMatchObject({
      provider: 'gcp',
      region: 'us-central1',
      instanceType: 'a3-highgpu-8g',
      gpuModel: 'H100',
      gpuCount: 8,
      gpuMemoryGiB: 640,
      lifecycle: 'on-demand',
    });
    expect(byName('llm-finetune-0').lifecycle).toBe('spot');
  });

  it('resolves teams from the ownership tags, untagged and unknown teams kept apart', () => {
    expect(byName('llm-pretrain-node-2')).toMatchObject({ team: 'llm-training', ownerTag: 'LLM' });
    expect(byName('llm-eval-a100')).toMatchObject({ team: 'llm-training', ownerTag: 'llm-training' }); // user:team
    expect(byName('bob-notebook')).toMatchObject({ team: 'ml-research', ownerTag: 'research' }); // key "Team"
    expect(byName('serve-embed-0').team).toBe('inference');
    expect(byName('cv-batch-labeler').team).toBe('vision');
    expect(byName('tmp-debug-box')).toMatchObject({ team: UNTAGGED, ownerTag: null, owner: null });
    expect(byName('growth-ranker-notebook')).toMatchObject({ team: UNMAPPED, ownerTag: 'growth-ml' });
    // Other tag keys are not ownership tags.
    expect(demoInventory(42, resolveTeam, { tagKeys: ['owner'] }).every((i) => i.team === UNTAGGED)).toBe(true);
  });

  it('reads workload and protection back from the tags; production inference is protected', () => {
    const fleet = demoFleet(42);
    inventory.forEach((i, index) => {
      const demo = fleet[index]!;
      expect(i.workload).toBe(demo.workload);
      expect(i.protected).toBe(demo.protected);
      expect(i.protected).toBe(i.tags['burnrate:protect'] === 'true');
      expect(i.owner).toBe(demo.owner);
    });
    expect(byName('serve-llm-primary')).toMatchObject({ workload: 'inference', protected: true, owner: 'U0DEMOERIN' });
    expect(byName('alice-notebook')).toMatchObject({ workload: 'notebook', protected: false, owner: 'U0DEMOALICE' });
    expect(byName('llm-sweep-0').workload).toBe('sweep');
    expect(new Set(inventory.map((i) => i.workload))).toEqual(new Set(['training', 'inference', 'notebook', 'sweep']));
  });

  it('tags the pre-training cluster as one multi-node run under the configured run tag', () => {
    // The multi-node guard reads the run tag of burnrate.yml (unitCosts.tagKeys.run): the demo's three
    // p5 nodes share one, and no other instance shares its run with another.
    const runTag = demoConfig().unitCosts.tagKeys.run;
    const nodes = ['llm-pretrain-node-0', 'llm-pretrain-node-1', 'llm-pretrain-node-2'].map(byName);
    expect(new Set(nodes.map((n) => n.tags[runTag]))).toEqual(new Set(['llm-pretrain-70b']));
    expect(new Set(nodes.map((n) => n.region))).toEqual(new Set(['us-east-1']));
    expect(multiNodeInstances(inventory, runTag)).toEqual(new Set(nodes.map((n) => n.instanceId)));
  });
});
