/**
 * Ctrl-C (SIGINT) and SIGTERM for a long-running verb. The listeners are installed before anything
 * starts, so a signal that arrives while serve is still starting is never the default one that ends
 * the process on the spot (no drain, no database close): serve finishes starting, then stops. A
 * second signal is the user insisting: the process ends at once with the conventional 128 + 2.
 */
export interface StopSignal {
  /** Resolves with the first signal's name. */
  readonly received: Promise<NodeJS.Signals>;
  /** Removes the listeners (the signals' default behaviour returns). */
  release(): void;
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export function listenForStop(onFirst: (signal: NodeJS.Signals) => void, proc: NodeJS.Process = process): StopSignal {
  let resolve!: (signal: NodeJS.Signals) => void;
  const received = new Promise<NodeJS.Signals>((r) => (resolve = r));
  let count = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    count += 1;
    if (count === 1) {
      onFirst(signal);
      resolve(signal);
    } else proc.exit(130);
  };
  SIGNALS.forEach((signal) => proc.on(signal, onSignal));
  return { received, release: () => SIGNALS.forEach((signal) => proc.off(signal, onSignal)) };
}
