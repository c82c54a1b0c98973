// The benchmarks' helper: tests start child processes on free ports the same way.
export { freePort } from '../../bench/free-port.js';
