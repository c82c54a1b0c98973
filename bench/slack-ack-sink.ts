// Stands in for Slack's response_url in the Slack slash-command benchmark, in its own process:
// Slack receives answers on its own machines, so taking them must not cost the load generator's
// event loop, which times the acknowledgements. Started by slack-ack.ts over IPC; prints nothing.
//   -> { port }                   once listening
//   -> { arrivals, errorAnswers } every BATCH_MS while answers arrive: [id, epoch ms] pairs
//      (performance.timeOrigin + now(), comparable across processes on one machine)

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How often arrivals are sent to the load generator: late enough to batch, early enough to wait on. */
const BATCH_MS = 20;
/** What an answer says when something went wrong: counted, so a fast wrong answer cannot pass as a result. */
const ERROR_ANSWER = /went wrong|could not read|Unknown command|don't understand|not in any team/i;

export interface SinkReport {
  arrivals: [number, number][];
  errorAnswers: number;
}

const send = process.send?.bind(process);
if (!send) throw new Error('slack-ack-sink runs as a child of the benchmark (IPC channel)');

let arrivals: [number, number][] = [];
let errorAnswers = 0;
let errorsReported = 0;

const server = createServer((req, res) => {
  const arrived = performance.timeOrigin + performance.now();
  const id = Number((req.url ?? '').split('/').pop());
  if (Number.isInteger(id)) arrivals.push([id, arrived]);
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (ERROR_ANSWER.test(Buffer.concat(chunks).toString())) errorAnswers++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => send({ port: (server.address() as AddressInfo).port }));

setInterval(() => {
  if (arrivals.length === 0 && errorAnswers === errorsReported) return;
  const report: SinkReport = { arrivals, errorAnswers };
  arrivals = [];
  errorsReported = errorAnswers;
  send(report);
}, BATCH_MS);

process.on('disconnect', () => process.exit(0));
