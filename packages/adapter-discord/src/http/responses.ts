/**
 * A 200 JSON answer whose `onDelivered` runs when the server reads the body to send it (the answer
 * is being handed to Discord), or when the server cancels it. Nothing runs for an answer nobody reads.
 */
export function deliveredJsonResponse(body: unknown, onDelivered: () => void): Response {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.enqueue(bytes);
        controller.close();
        onDelivered();
      },
      cancel() {
        onDelivered();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'content-length': String(bytes.byteLength),
    },
  });
}

/** A short plain-text answer (errors, refusals of the request itself). */
export function textResponse(
  status: number,
  text: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
  });
}
