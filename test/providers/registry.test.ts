import { describe, expect, it } from 'vitest';
import { gpuInventorySourceSchema, gpuMetricsSourceSchema } from '../../src/config/gpu-sources-schema.js';
import { sourceSchema } from '../../src/config/schema.js';
import { PROVIDERS } from '../../src/providers/registry.js';

/** The `type` literals of a discriminated union of burnrate.yml, read from the zod schema itself. */
function typesOf(union: { options: readonly { shape: { type: { value: unknown } } }[] }): string[] {
  return union.options.map((option) => String(option.shape.type.value));
}

describe('the provider registry', () => {
  it('has one provider for every type of source, GPU metrics and GPU inventory burnrate.yml accepts, and each can build it', () => {
    const sections = [
      { types: typesOf(sourceSchema), claims: (p: (typeof PROVIDERS)[number]) => p.configTypes.sources, builds: 'sources' as const },
      { types: typesOf(gpuMetricsSourceSchema), claims: (p: (typeof PROVIDERS)[number]) => p.configTypes.metrics, builds: 'gpu' as const },
      {
        types: typesOf(gpuInventorySourceSchema),
        claims: (p: (typeof PROVIDERS)[number]) => p.configTypes.inventory,
        builds: 'gpu' as const,
      },
    ];
    for (const { types, claims, builds } of sections) {
      expect(types.length).toBeGreaterThan(0);
      for (const type of types) {
        const readers = PROVIDERS.filter((p) => (claims(p) as readonly string[] | undefined)?.includes(type));
        expect(
          readers.map((p) => p.id),
          type,
        ).toHaveLength(1);
        expect(typeof readers[0]![builds], `${readers[0]!.id} builds ${type}`).toBe('function');
      }
      // And no provider claims a type the file does not accept.
      const claimed = PROVIDERS.flatMap((p) => (claims(p) as readonly string[] | undefined) ?? []);
      expect(claimed.filter((type) => !types.includes(type))).toEqual([]);
    }
  });

  it('names each provider once', () => {
    const ids = PROVIDERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
