/**
 * Runs tasks one at a time per key, in arrival order, within this process. Two clicks on the
 * same Stop button therefore never both see "running"; across replicas the approval row in the
 * store is what keeps a stop single.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with a task queued or running (for tests: the map must not grow without bound). */
  get size(): number {
    return this.tails.size;
  }
}
