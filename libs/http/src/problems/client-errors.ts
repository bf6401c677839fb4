import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemBody } from './problem';

/**
 * Requests that Node's HTTP parser refuses never reach Express; Node would answer them with an
 * empty body. They get a problem+json answer like every other error, then the connection closes.
 */
export function answerClientErrorsWithProblems(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, reason, code, detail] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'request.headers_too_large', 'The request headers are larger than the server accepts (16 KB in all)']
        : [400, 'Bad Request', 'request.malformed', 'The request is not valid HTTP'];
    const body = JSON.stringify(problemBody(status, code, detail, null));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
