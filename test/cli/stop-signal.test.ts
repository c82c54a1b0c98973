import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { listenForStop } from '../../src/cli/stop-signal.js';

/** A process as far as signals go: listeners, and an exit that records its code. */
function fakeProcess() {
  const proc = new EventEmitter() as EventEmitter & { exits: number[]; exit(code: number): void };
  proc.exits = [];
  proc.exit = (code: number) => void proc.exits.push(code);
  return proc;
}

describe('listenForStop', () => {
  it('the first signal asks for a clean stop, a second one ends the process at once, and release restores the defaults', async () => {
    const proc = fakeProcess();
    const told: string[] = [];
    const stop = listenForStop((signal) => told.push(signal), proc as unknown as NodeJS.Process);
    proc.emit('SIGTERM', 'SIGTERM');
    expect(await stop.received).toBe('SIGTERM');
    expect(told).toEqual(['SIGTERM']);
    expect(proc.exits).toEqual([]);
    proc.emit('SIGINT', 'SIGINT');
    expect(proc.exits).toEqual([130]);
    stop.release();
    expect(proc.listenerCount('SIGINT') + proc.listenerCount('SIGTERM')).toBe(0);
  });
});
