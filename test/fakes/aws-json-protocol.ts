import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

// AWS's JSON protocols as the fakes answer them: version 1.1 (Cost Explorer, Budgets, Athena) and
// 1.0 (CloudWatch), each answer with a request id. Written once, so every AWS fake's errors reach
// the SDK's error parsing the same way the real services' do.

export type AwsJsonVersion = '1.0' | '1.1';

export function sendAwsJson(res: ServerResponse, version: AwsJsonVersion, body: unknown): void {
  res.writeHead(200, { 'content-type': `application/x-amz-json-${version}`, 'x-amzn-requestid': randomUUID() });
  res.end(JSON.stringify(body));
}

export interface AwsJsonError {
  status: number;
  /** The error's `__type`, e.g. AccessDeniedException or com.amazon.coral.service#AccessDeniedException. */
  type: string;
  message: string;
  /** Athena spells it `Message`; the others `message`. */
  messageKey?: 'message' | 'Message';
  /** A service that also speaks the query protocol (CloudWatch) names the error's query code in a header. */
  queryCode?: string;
}

export function sendAwsJsonError(res: ServerResponse, version: AwsJsonVersion, error: AwsJsonError): void {
  res.writeHead(error.status, {
    'content-type': `application/x-amz-json-${version}`,
    'x-amzn-requestid': randomUUID(),
    ...(error.queryCode ? { 'x-amzn-query-error': `${error.queryCode};Sender` } : {}),
  });
  res.end(JSON.stringify({ __type: error.type, [error.messageKey ?? 'message']: error.message }));
}
