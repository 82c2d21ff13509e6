import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { DOCS_BASE_URL, ERROR_STATUS, type ErrorEnvelope } from '@svc/contract';
import { newId } from '../ids.ts';

/**
 * Requests Node's HTTP server refuses before any handler runs (a request line or headers past the
 * size limit, a malformed request line, a bad header, a request not received in time): by default Node answers a bare 431 or 400
 * with no body. They get the error envelope like every other refusal, so a client sees one shape
 * whatever went wrong. 431 is not among the API's codes: an oversized header is a 400
 * `bad_request` naming `headers`, like an oversized body names `body`.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or a closed socket has nobody left to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const late = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const correlationId = newId('cor');
    const body: ErrorEnvelope = {
      error: 'bad_request',
      message: tooLarge
        ? 'The request line or headers are too large.'
        : late
          ? 'The request was not received in time.'
          : 'The request could not be parsed as HTTP.',
      details: [{ field: late ? 'request' : 'headers', issue: tooLarge ? 'too_big' : late ? 'timeout' : 'invalid_format' }],
      correlation_id: correlationId,
      documentation_url: `${DOCS_BASE_URL}#bad_request`,
    };
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${ERROR_STATUS.bad_request} Bad Request\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        `X-Correlation-Id: ${correlationId}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  });
}
