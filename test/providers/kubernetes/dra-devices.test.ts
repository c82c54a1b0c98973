import { describe, expect, it } from 'vitest';
import { claimGpusByPod, claimsOf, DraGpus } from '../../../src/providers/kubernetes/dra-devices.js';
import { deviceClass, pod, resourceClaim, resourceSlice } from '../../fakes/kube-objects.js';

const A30 = 'NVIDIA A30';

describe('DRA devices as GPUs', () => {
  it('counts a driver a GPU DeviceClass selects, a MIG device of an A30 at 2 of 4 slices, and a device no slice lists as one GPU', () => {
    const dra = new DraGpus(
      [
        resourceSlice(
          'n1',
          [
            { name: 'gpu-0', uuid: 'GPU-a', product: A30 },
            { name: 'gpu-0-mig-2g', uuid: 'MIG-1', product: A30, mig: { profile: '2g.12gb', parentUUID: 'GPU-a' } },
            { name: 'gpu-1', uuid: 'GPU-b', product: A30 },
          ],
          'example.com/accel',
        ),
      ],
      [
        resourceClaim('ml', 'slice', { node: 'n1', devices: ['gpu-0-mig-2g'], driver: 'example.com/accel' }, ['p']),
        resourceClaim('ml', 'stale', { node: 'n1', devices: ['gpu-9'], driver: 'gpu.nvidia.com' }, ['q']),
        resourceClaim('ml', 'nic', { node: 'n1', devices: ['eth0'], driver: 'net.example.com' }, ['r']),
      ],
      [deviceClass('accelerator-gpu', 'example.com/accel')],
    );
    // Two physical GPUs: the MIG device is part of GPU-a.
    expect(dra.physicalGpusOn('n1')).toBe(2);
    expect(dra.physicalGpusOn('n2')).toBe(0);
    expect(dra.gpusOf('ml/slice')).toBe(2 / 4);
    expect(dra.gpusOf('ml/stale')).toBe(1);
    // A network device is no GPU.
    expect(dra.gpusOf('ml/nic')).toBe(0);
  });

  it('splits a claim over the running pods naming it, directly or through a template', () => {
    const dra = new DraGpus(
      [
        resourceSlice(
          'n1',
          [0, 1, 2].map((i) => ({ name: `gpu-${i}`, uuid: `GPU-${i}`, product: 'NVIDIA H100 80GB HBM3' })),
        ),
      ],
      [
        resourceClaim('ml', 'three', { node: 'n1', devices: ['gpu-0', 'gpu-1', 'gpu-2'] }, ['a', 'b', 'c']),
        resourceClaim('ml', 'gen-x1', { node: 'n1', devices: ['gpu-0'] }, ['d']),
      ],
      [],
    );
    const pods = [
      pod('ml', 'a', { node: 'n1', claims: [{ name: 'g', claim: 'three' }] }),
      pod('ml', 'b', { node: 'n1', claims: [{ name: 'g', claim: 'three' }] }),
      pod('ml', 'c', { node: 'n1', claims: [{ name: 'g', claim: 'three' }] }),
      pod('ml', 'd', { node: 'n1', claims: [{ name: 'g', claim: 'gen-x1', template: true }] }),
      pod('ml', 'e', { node: 'n1' }),
    ];
    expect(claimsOf(pods[3]!)).toEqual(['ml/gen-x1']);
    const held = claimGpusByPod(pods, dra);
    expect([...held].map(([p, h]) => [p.metadata.name, h.gpus])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 1],
      ['d', 1],
    ]);
  });
});
