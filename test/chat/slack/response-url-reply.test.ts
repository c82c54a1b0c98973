import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { responseUrlReply } from '../../../src/chat/slack/response-url-reply.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { freePort } from '../../support/free-port.js';

const message = {
  summary: 'The monthly budget of ml-research is now $70,000.00',
  blocks: [{ type: 'text' as const, text: 'The monthly budget of **ml-research** is now **$70,000.00**' }],
};

describe('a private answer POSTed to response_url from an answer worker', () => {
  let fake: FakeSlackApi;
  beforeEach(async () => {
    fake = await FakeSlackApi.start();
  });
  afterEach(async () => {
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  it('posts the same ephemeral Block Kit body as Bolt respond(), reusing the connection', async () => {
    for (const id of ['a', 'b']) await responseUrlReply(fake.responseUrl(id)).private(message);
    expect(fake.responses.map((r) => r.id)).toEqual(['a', 'b']);
    expect(fake.responses[0]?.body).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'The monthly budget of ml-research is now $70,000.00',
    });
    expect(JSON.stringify(fake.responses[0]?.body.blocks)).toContain('*ml-research*');
  });

  it('fails, without the URL in the error, when Slack refuses the answer or cannot be reached', async () => {
    const refused = `${fake.origin}/nowhere/secret-path`;
    await expect(responseUrlReply(refused).private(message)).rejects.toThrow(/^response_url answered HTTP 404$/);
    const closed = `http://127.0.0.1:${await freePort()}/response/secret-path`;
    const error = await responseUrlReply(closed)
      .private(message)
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error?.message).toBe('response_url could not be reached: ECONNREFUSED');
    await expect(responseUrlReply('ftp://127.0.0.1/x').private(message)).rejects.toThrow('response_url is not an http(s) URL (ftp:)');
  });
});
