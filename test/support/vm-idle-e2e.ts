import type { Config } from '../../src/config/schema.js';
import type { GpuDeps } from '../../src/deps.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { buildSources } from '../../src/providers/registry.js';
import { constant, dcgmGpuLabelSets, readDcgmExposition, type FakeDcgmGpu } from '../fakes/fake-prometheus.js';
import { testDeps } from './deps.js';

// What the end-to-end tests of a cloud's GPU VMs (Compute Engine, Azure) share: two teams with one
// owner each, DCGM metrics of VMs that went idle at one moment, and the bill imported when a test
// writes one.

/** Owns the vision team. */
export const VISION_OWNER = 'U0ALICE';
/** Owns the nlp team. */
export const NLP_OWNER = 'U0BOB';

/** The DCGM exposition's idle host: the idle VMs report its values. */
const IDLE_HOST = '424773df46e0';

/**
 * DCGM GPUs (one each) from the shared exposition: `idle` hosts busy until `idleFrom` (unix seconds),
 * then at the idle GPU's values; `busy` hosts at 97% throughout. A host is as DCGM's Hostname label says.
 */
export function dcgmIdleFleet(idleFrom: number, idle: readonly string[], busy: readonly string[]): FakeDcgmGpu[] {
  const samples = readDcgmExposition();
  const value = (name: string) => samples.find((s) => s.name === name && s.labels.Hostname === IDLE_HOST)!.value;
  const [template] = dcgmGpuLabelSets(samples);
  const idleSince = (busyValue: number, idleValue: number) => (t: number) => (t >= idleFrom ? idleValue : busyValue);
  return [
    ...idle.map((hostname) => ({
      labels: { ...template, Hostname: hostname, gpu: '0' },
      metrics: {
        DCGM_FI_DEV_GPU_UTIL: idleSince(97, value('DCGM_FI_DEV_GPU_UTIL')),
        DCGM_FI_DEV_FB_USED: idleSince(20_000, value('DCGM_FI_DEV_FB_USED')),
      },
    })),
    ...busy.map((hostname) => ({
      labels: { ...template, Hostname: hostname, gpu: '0' },
      metrics: { DCGM_FI_DEV_GPU_UTIL: constant(97), DCGM_FI_DEV_FB_USED: constant(20_000) },
    })),
  ];
}

/** What differs between the clouds' tests: the time, burnrate.yml's `gpu` section and how its GPU parts are built. */
export interface VmIdleSetup {
  now: string;
  gpu: object;
  gpuOf: (config: Config) => GpuDeps | Promise<GpuDeps>;
  actionsEnabled?: boolean;
  /** A FOCUS file to import before the check, as the `focus` source reads it. */
  bill?: string;
}

/** Real deps with the two teams, the GPU parts built and the bill (when given) imported. */
export async function vmIdleDeps({ now, gpu, gpuOf, actionsEnabled = true, bill }: VmIdleSetup) {
  const t = testDeps(
    {
      teams: [
        { id: 'vision', owners: [VISION_OWNER] },
        { id: 'nlp', owners: [NLP_OWNER] },
      ],
      sources: bill ? [{ type: 'focus', paths: [bill] }] : [],
      gpu,
      actions: { enabled: actionsEnabled },
    },
    now,
  );
  t.deps.gpu = await gpuOf(t.deps.config);
  if (bill) {
    t.deps.sources = buildSources(t.deps.config).spend;
    await refreshSources(t.deps);
  }
  return t;
}
