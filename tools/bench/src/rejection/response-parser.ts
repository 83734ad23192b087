/**
 * A minimal HTTP/1.1 response reader for the benchmark's raw-socket load generator: fed the bytes
 * of one keep-alive connection in whatever chunks they arrive, it reports each complete response's
 * status and whether the server closes the connection after it. Bodies are skipped, by
 * `Content-Length` or `Transfer-Encoding: chunked`; nothing is kept beyond the unparsed tail.
 */

/** One complete response. */
export interface ParsedResponse {
  readonly status: number;
  /** The server said `Connection: close` (it will close the socket after this response). */
  readonly close: boolean;
}

/** A response the reader cannot follow (a broken head or chunk size): the connection is unusable. */
export class ResponseParseError extends Error {
  override readonly name = 'ResponseParseError';
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** Reads the responses of one connection, in order. */
export class ResponseParser {
  #buffer: Buffer = Buffer.alloc(0);
  /** The head of the response whose body is being skipped, if any. */
  #current: ParsedResponse | undefined;
  /** Body bytes still to skip (`Content-Length`), or -1 while reading chunked framing. */
  #remaining = 0;

  /** Feeds `chunk`; returns the responses it completed (often none or one). */
  push(chunk: Buffer): ParsedResponse[] {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const done: ParsedResponse[] = [];
    for (;;) {
      if (this.#current === undefined && !this.#readHead()) break;
      if (!this.#skipBody()) break;
      done.push(this.#current!);
      this.#current = undefined;
    }
    return done;
  }

  /** Parses a head when the buffer holds one whole; false when more bytes are needed. */
  #readHead(): boolean {
    const end = this.#buffer.indexOf(HEAD_END);
    if (end < 0) return false;
    const lines = this.#buffer.toString('latin1', 0, end).split('\r\n');
    this.#buffer = this.#buffer.subarray(end + HEAD_END.length);
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (status === null) throw new ResponseParseError(`bad status line: ${lines[0]}`);
    let length = 0;
    let chunked = false;
    let close = false;
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding') chunked = value.includes('chunked');
      else if (name === 'connection') close = value.includes('close');
    }
    if (!Number.isInteger(length) || length < 0) throw new ResponseParseError('bad content-length');
    this.#current = { status: Number(status[1]), close };
    this.#remaining = chunked ? -1 : length;
    return true;
  }

  /** Skips the current response's body; false when more bytes are needed. */
  #skipBody(): boolean {
    if (this.#remaining >= 0) {
      if (this.#buffer.length < this.#remaining) return false;
      this.#buffer = this.#buffer.subarray(this.#remaining);
      this.#remaining = 0;
      return true;
    }
    // Chunked: `size CRLF data CRLF` until a zero size, then the (empty) trailer's CRLF.
    for (;;) {
      const lineEnd = this.#buffer.indexOf(CRLF);
      if (lineEnd < 0) return false;
      const size = Number.parseInt(this.#buffer.toString('latin1', 0, lineEnd), 16);
      if (!Number.isInteger(size) || size < 0) throw new ResponseParseError('bad chunk size');
      const frame = lineEnd + CRLF.length + size + CRLF.length;
      if (this.#buffer.length < frame) return false;
      this.#buffer = this.#buffer.subarray(frame);
      if (size === 0) return true;
    }
  }
}
