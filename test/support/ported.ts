/**
 * Skips the running case unless each probe (a harmless call on a sub-store the case needs besides
 * the one it tests) works: the Postgres store gains its sub-stores one at a time, and until one is
 * there its calls reject with "not ported to Postgres yet".
 */
export async function skipUnlessPorted(context: { skip: (note?: string) => void }, ...probes: (() => Promise<unknown>)[]): Promise<void> {
  for (const probe of probes) {
    try {
      await probe();
    } catch (error) {
      if (/not ported to Postgres yet/.test((error as Error).message)) return context.skip((error as Error).message);
      throw error;
    }
  }
}
