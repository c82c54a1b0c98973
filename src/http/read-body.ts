import type { IncomingMessage } from 'node:http';

/** A request body that cannot be used: the status to answer with and a short reason for the caller. */
export class BodyError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 401 | 413,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

/**
 * The whole request body, refused once it passes `limit` bytes (413) so a huge body is never held
 * in memory, and refused as 400 when the client breaks the upload off. Both are BodyErrors: the
 * route answers them and moves on.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyError(`request body over ${limit} bytes`, 413);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new BodyError(`request body over ${limit} bytes`, 413);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof BodyError) throw error;
    throw new BodyError('request body could not be read', 400);
  }
  return Buffer.concat(chunks, size);
}
