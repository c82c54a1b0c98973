import type { Writable } from 'node:stream';

/** A one-line progress bar on a TTY; silent elsewhere so logs and pipes stay clean. */
export function progressBar(
  stream: Writable & { isTTY?: boolean },
  label: string,
): { update(done: number, total: number): void; finish(): void } {
  if (!stream.isTTY) return { update: () => {}, finish: () => {} };
  let last = -1;
  return {
    update(done, total) {
      const fraction = total > 0 ? Math.min(1, done / total) : 0;
      const percent = Math.floor(fraction * 100);
      if (percent === last) return;
      last = percent;
      const width = 30;
      const filled = Math.round(fraction * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}%`);
    },
    finish() {
      if (last >= 0) stream.write('\n');
    },
  };
}
