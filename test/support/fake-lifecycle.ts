import { afterEach, vi } from 'vitest';

interface ProtocolFake {
  assertNoUnexpectedCalls(): void;
  close(): Promise<void>;
}

/**
 * Registers the after-each of a test file that uses protocol fakes: environment stubs undone, no
 * fake saw an unexpected call, every server closed. `track` each fake a test starts.
 */
export function fakeLifecycle<T extends ProtocolFake>(): { track<F extends T>(fake: F): F } {
  let current: T[] = [];
  afterEach(async () => {
    vi.unstubAllEnvs();
    const fakes = current;
    current = [];
    try {
      for (const fake of fakes) fake.assertNoUnexpectedCalls();
    } finally {
      await Promise.all(fakes.map((fake) => fake.close()));
    }
  });
  return {
    track: (fake) => {
      current.push(fake);
      return fake;
    },
  };
}
