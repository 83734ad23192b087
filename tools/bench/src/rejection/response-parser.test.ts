import { describe, expect, it } from 'vitest';
import { ResponseParseError, ResponseParser } from './response-parser.js';

const text = (value: string) => Buffer.from(value, 'latin1');
const RESPONSE_503 =
  'HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: 19\r\n\r\nService Unavailable';

describe('ResponseParser', () => {
  it('reads a response split anywhere across chunks, once it is whole', () => {
    for (let cut = 1; cut < RESPONSE_503.length; cut += 1) {
      const parser = new ResponseParser();
      expect(parser.push(text(RESPONSE_503.slice(0, cut)))).toEqual([]);
      expect(parser.push(text(RESPONSE_503.slice(cut)))).toEqual([{ status: 503, close: false }]);
    }
  });

  it('reads two responses in one chunk, in order, with a third begun', () => {
    const parser = new ResponseParser();
    const ok = 'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n';
    const done = parser.push(text(RESPONSE_503 + ok + RESPONSE_503.slice(0, 20)));
    expect(done).toEqual([
      { status: 503, close: false },
      { status: 200, close: false },
    ]);
    expect(parser.push(text(RESPONSE_503.slice(20)))).toEqual([{ status: 503, close: false }]);
  });

  it('reports Connection: close', () => {
    const parser = new ResponseParser();
    const head = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 2\r\n\r\nno';
    expect(parser.push(text(head))).toEqual([{ status: 400, close: true }]);
  });

  it('skips a chunked body, chunk by chunk', () => {
    const parser = new ResponseParser();
    const chunked =
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n';
    expect(parser.push(text(chunked.slice(0, 50)))).toEqual([]);
    expect(parser.push(text(chunked.slice(50)))).toEqual([{ status: 200, close: false }]);
  });

  it('throws a typed error on a head it cannot read', () => {
    expect(() => new ResponseParser().push(text('SMTP ready\r\n\r\n'))).toThrow(ResponseParseError);
    expect(() =>
      new ResponseParser().push(text('HTTP/1.1 200 OK\r\ncontent-length: -3\r\n\r\n')),
    ).toThrow(ResponseParseError);
  });
});
