import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Route } from '../../src/http/server.js';

/** Serves `route` on a loopback port for one GET, as a scrape would, and returns the text it answered. */
export async function scrape(route: Route): Promise<string> {
  const server = createServer((req, res) => void route(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
    if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
    return await res.text();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
