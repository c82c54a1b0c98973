import { createHttpHeaders, type HttpClient, type PipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';

/**
 * An @azure/core-rest-pipeline transport that carries https requests to 127.0.0.1 over plain http.
 * MSAL (inside @azure/identity) refuses an authority that is not https; a test's fake Entra listens
 * on http, so the credential is given https://127.0.0.1:port and this carries each request there
 * unchanged otherwise. Anything not on 127.0.0.1 is refused, so a test never reaches the internet.
 */
export const plainHttpTransport: HttpClient = {
  async sendRequest(request: PipelineRequest): Promise<PipelineResponse> {
    const url = new URL(request.url);
    if (url.hostname !== '127.0.0.1') throw new Error(`test transport: ${url.host} is not a fake on 127.0.0.1`);
    url.protocol = 'http:';
    const res = await fetch(url, {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      ...(typeof request.body === 'string' ? { body: request.body } : {}),
    });
    return { request, status: res.status, headers: createHttpHeaders(Object.fromEntries(res.headers)), bodyAsText: await res.text() };
  },
};
