import type { IncomingMessage, Server } from 'node:http';

/** The whole request body as text: every fake reads it before answering. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** The whole request body as bytes (file uploads). */
export function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Access key, region and service from a SigV4 Authorization header's credential scope. */
export function sigV4Scope(req: IncomingMessage): { accessKeyId?: string; region?: string; service?: string } {
  const match = /Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/.exec(String(req.headers.authorization ?? ''));
  return match ? { accessKeyId: match[1], region: match[2], service: match[3] } : {};
}

/** Stops a fake's server now, dropping keep-alive connections the clients under test still hold. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
