/**
 * Seeded randomness for the demo organisation. Never Math.random: the demo must be reproducible, so
 * that a test, a screenshot and a user's first `npm start` all see the same organisation.
 */

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Roughly normal (sum of three uniforms), clamped to mean ± 3 sd. */
  normal(mean: number, sd: number): number;
  /** Lower-case hex digits, e.g. for ids. */
  hex(length: number): string;
}

/** mulberry32: a tiny, fast 32-bit generator, good enough for demo data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 32-bit seed from several parts (FNV-1a over their text). Deriving one stream per
 * (seed, instance, day) keeps each day's figures independent of the window asked for: the demo's
 * 2026-03-04 is the same whether 7 or 90 days are pulled.
 */
export function seedOf(...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u001f')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function createRandom(seed: number): Random {
  const next = mulberry32(seed);
  const random: Random = {
    next,
    between: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor((max - min + 1) * next()),
    chance: (probability) => next() < probability,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
    normal: (mean, sd) => {
      const z = (next() + next() + next() - 1.5) * 2; // variance 1
      return mean + sd * Math.max(-3, Math.min(3, z));
    },
    hex: (length) => {
      let text = '';
      while (text.length < length)
        text += Math.floor(next() * 0x10000)
          .toString(16)
          .padStart(4, '0');
      return text.slice(0, length);
    },
  };
  return random;
}

/** Shorthand: a generator for one derived stream. */
export function randomFor(...parts: readonly (string | number)[]): Random {
  return createRandom(seedOf(...parts));
}
