import { afterEach, vi } from 'vitest';

interface ProtocolFake {
  assertNoUnexpectedCalls(): void;
  close(): Promise<void>;
}

/**
 * Registers the after-each of a test file using one protocol fake at a time: environment stubs
 * undone, no unexpected call, server closed. `track` the fake a test starts.
 */
export function fakeLifecycle<T extends ProtocolFake>(): { track(fake: T): T } {
  let current: T | undefined;
  afterEach(async () => {
    vi.unstubAllEnvs();
    const fake = current;
    current = undefined;
    try {
      fake?.assertNoUnexpectedCalls();
    } finally {
      await fake?.close();
    }
  });
  return { track: (fake) => (current = fake) };
}
