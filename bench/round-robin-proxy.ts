import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer on 127.0.0.1 as Kubernetes' Service gives several replicas: each request goes to
 * the next backend in turn; one that refuses the connection (its process died) is skipped, as a
 * readiness probe would take it out. Records which backend took each request.
 */
export class RoundRobinProxy {
  readonly routed: { path: string; port: number }[] = [];
  private next = 0;

  private constructor(
    private readonly server: Server,
    readonly backends: number[],
  ) {}

  static async start(backends: number[]): Promise<RoundRobinProxy> {
    const server = createServer();
    const proxy = new RoundRobinProxy(server, backends);
    server.on('request', (req, res) => {
      void (async () => {
        const body = await readAll(req);
        for (let tried = 0; tried < proxy.backends.length; tried++) {
          const port = proxy.backends[proxy.next++ % proxy.backends.length]!;
          try {
            const answer = await forward(port, req, body);
            proxy.routed.push({ path: req.url ?? '', port });
            res.writeHead(answer.status, answer.headers);
            res.end(answer.body);
            return;
          } catch {
            // Connection refused or reset before an answer: the next replica takes it.
          }
        }
        res.writeHead(502).end('no replica answered');
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function forward(
  port: number,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${port}` } },
      (res) => {
        void readAll(res).then(
          (answer) => resolve({ status: res.statusCode ?? 502, headers: res.headers as Record<string, string | string[]>, body: answer }),
          reject,
        );
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}
