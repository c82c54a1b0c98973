import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP link to a database that a test can cut the way a network partition does: nothing is
 * closed, nothing answers, bytes just stop arriving both ways (no RST, no FIN), until `restore()`.
 */
export interface CuttableLink {
  /** `url` with its host and port replaced by this link's. */
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function cuttableLink(url: string): Promise<CuttableLink> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((inbound) => {
    const outbound = connect(Number(target.port || 5432), target.hostname);
    sockets.add(inbound).add(outbound);
    // Bytes that reach a cut link are dropped, as on a partitioned network.
    inbound.on('data', (chunk) => cut || outbound.write(chunk));
    outbound.on('data', (chunk) => cut || inbound.write(chunk));
    const end = () => {
      inbound.destroy();
      outbound.destroy();
      sockets.delete(inbound);
      sockets.delete(outbound);
    };
    inbound.on('close', end).on('error', end);
    outbound.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const linked = new URL(url);
  linked.hostname = '127.0.0.1';
  linked.port = String((server.address() as { port: number }).port);
  return {
    url: linked.toString(),
    cut: () => (cut = true),
    restore: () => (cut = false),
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
