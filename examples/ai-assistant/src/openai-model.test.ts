/**
 * The real-provider path without the network: `openAiModel` against a local OpenAI-compatible
 * server on 127.0.0.1 (`baseURL`) streaming Chat Completions chunks as server-sent events.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deferred } from '@rt/testing';
import { streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiModel } from './model.js';

interface Served {
  readonly url: string;
  readonly server: Server;
  readonly requests: { path: string; auth: string | undefined; body: Record<string, unknown> }[];
}

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const part of req) text += String(part);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Serves `deltas` then, unless `hang`, the finish chunk and `[DONE]`. */
async function serve(
  deltas: readonly string[],
  hang?: (req: IncomingMessage) => void,
): Promise<Served> {
  const requests: Served['requests'] = [];
  const server = createServer(async (req, res) => {
    requests.push({
      path: req.url ?? '',
      auth: req.headers.authorization,
      body: await readJson(req),
    });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk({ role: 'assistant', content: '' }));
    for (const delta of deltas) res.write(chunk({ content: delta }));
    if (hang !== undefined) {
      hang(req);
      return;
    }
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, requests };
}

describe('openAiModel', () => {
  let served: Served | undefined;
  afterEach(async () => {
    served?.server.closeAllConnections();
    await new Promise<void>((resolve) =>
      served ? served.server.close(() => resolve()) : resolve(),
    );
    served = undefined;
  });

  it('streams the Chat Completions answer of an OpenAI-compatible endpoint', async () => {
    served = await serve(['Hel', 'lo ', 'there']);
    const model = openAiModel({ apiKey: 'sk-test', modelId: 'gpt-test', baseURL: served.url });
    const { textStream } = streamText({ model, system: 'be brief', prompt: 'hi' });
    let text = '';
    for await (const part of textStream) text += part;
    expect(text).toBe('Hello there');
    expect(served.requests).toHaveLength(1);
    expect(served.requests[0]?.path).toBe('/v1/chat/completions');
    expect(served.requests[0]?.auth).toBe('Bearer sk-test');
    expect(served.requests[0]?.body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('aborts the request when abortSignal aborts (what ctx.signal does at a shutdown)', async () => {
    const closed = deferred();
    served = await serve(['partial '], (req) => req.socket.once('close', () => closed.resolve()));
    const model = openAiModel({ apiKey: 'sk-test', baseURL: served.url });
    const controller = new AbortController();
    const { textStream } = streamText({ model, prompt: 'hi', abortSignal: controller.signal });
    const iterator = textStream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toBe('partial ');
    controller.abort(new Error('shutdown'));
    await closed.promise; // the server saw the connection go: the model request stopped
    await iterator.return?.();
  });
});
