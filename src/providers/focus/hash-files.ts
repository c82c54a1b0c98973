import { Worker } from 'node:worker_threads';

// The files' SHA-256, computed on a worker thread: hashing a large export takes a second or more
// of CPU, which on the main thread would hold up everything else the process answers meanwhile.

/** The worker's code, plain CommonJS so it runs the same from the TypeScript sources and the build. */
const HASHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
// One 1 MiB buffer read into again and again: fresh chunks per read make garbage, 64 KiB reads are slow.
const buffer = Buffer.allocUnsafe(1024 * 1024);
parentPort.postMessage(workerData.map((file) => {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}));
`;

/** Each file's SHA-256 in hex, in the order given. */
export function hashFiles(files: readonly string[]): Promise<string[]> {
  if (files.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const worker = new Worker(HASHER, { eval: true, workerData: [...files] });
    let hashes: string[] | undefined;
    worker.once('message', (message: string[]) => (hashes = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (hashes ? resolve(hashes) : reject(new Error(`hashing stopped with exit code ${code}`))));
  });
}
