import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import {
  expectationFailed,
  type FolioError,
  headersTooLarge,
  invalidRequest,
  requestTimeout,
  tooLarge,
} from '../errors/errors.js';

/** Node's in-flight response on a socket (`_httpMessage`, which has no public name): set once headers parsed. */
type InFlight = { headersSent?: boolean } | null | undefined;
const inFlightOf = (socket: Socket): InFlight =>
  (socket as Socket & { _httpMessage?: InFlight })._httpMessage;

/** What Node's HTTP parser rejected, as a registry error (the parser's codes are llhttp's `HPE_…`). */
function answerOf(code: string, inFlight: InFlight, timeoutMs: number): FolioError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      // Node's maxHeaderSize (16 KB) covers the request line too, so a long URL lands here as well.
      return headersTooLarge(
        'The request line and headers exceed 16 KB; send long values in a request body.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      // REQUEST_TIMEOUT_MS (Node's requestTimeout) covers the body too: with a response waiting, the headers came.
      return requestTimeout(
        inFlight === undefined || inFlight === null
          ? 'The request line and headers did not arrive in time.'
          : `The request did not arrive within ${Math.round(timeoutMs / 1000)} s.`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return tooLarge('The chunk extensions of the request body are too large.');
    case 'HPE_INVALID_METHOD':
      return invalidRequest('The request method is not a valid HTTP method.');
    case 'HPE_INVALID_HEADER_TOKEN':
      return invalidRequest('A header name or value holds a character HTTP does not allow.');
    default:
      return invalidRequest('The request is not valid HTTP.');
  }
}

/**
 * Fastify's `clientErrorHandler` option: requests Node's parser refuses before Fastify sees them (a URL or
 * headers over 16 KB, control characters in a header, a garbled request line), and requests that did not arrive
 * within REQUEST_TIMEOUT_MS (Node's `requestTimeout`). Fastify's default answers these outside the 7.1 envelope;
 * this writes the envelope on the raw socket and closes it, as Node's own default does. `timeoutMs` names the
 * configured timeout in the 408's message.
 */
export function clientErrorHandler(timeoutMs: number) {
  return (err: ConnectionError, socket: Socket): void => {
    // A reset or closed connection has nobody left to answer (Node's docs on the 'clientError' event).
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    answerAndClose(socket, answerOf(err.code, inFlightOf(socket), timeoutMs), err);
  };
}

/**
 * Writes `folio` as a whole response on the raw socket and destroys it: for a request Fastify cannot answer
 * itself (its bytes stopped, or never parsed). Like Node's default, only when no response on this connection has
 * begun, else our bytes would corrupt it; the connection is closed either way.
 */
export function answerAndClose(socket: Socket, folio: FolioError, err?: Error): void {
  if (socket.writable && inFlightOf(socket)?.headersSent !== true) {
    const body = JSON.stringify(folio.toBody());
    socket.write(
      [
        `HTTP/1.1 ${folio.status} ${STATUS_CODES[folio.status] ?? 'Error'}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(err);
}

/**
 * Node's `checkExpectation` event: a request with an `Expect` other than `100-continue` (RFC 9110 10.1.1), which
 * Node otherwise answers with a bare 417 and no body. The envelope instead; the request never reaches a route.
 */
export function expectationHandler(request: IncomingMessage, response: ServerResponse): void {
  const expect = String(request.headers.expect ?? '').slice(0, 100);
  const folio = expectationFailed(`Expect: ${expect} is not supported; only 100-continue is.`);
  const body = JSON.stringify(folio.toBody());
  response.writeHead(folio.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  response.end(body);
}
