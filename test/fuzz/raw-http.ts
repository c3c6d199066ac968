import http from 'node:http';
import net from 'node:net';

/** A request exactly as it goes on the wire: headers in order, repeats allowed, body bytes as given. */
export interface WireRequest {
  method: string;
  /** Path and query, already percent-encoded where the case wants it encoded. */
  path: string;
  headers: [name: string, value: string][];
  body?: Buffer;
}

export interface WireResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * Sends one request with node:http, which (unlike fetch) sends repeated headers as separate lines, adds
 * no Content-Type of its own and passes any method; a Host header comes first. Header values are Latin-1 on the wire, so text
 * beyond it is sent as its UTF-8 bytes, as a real client would.
 */
export function sendRequest(port: number, request: WireRequest, agent: http.Agent): Promise<WireResponse> {
  // Headers given as a list get no Host added by node:http, and HTTP/1.1 requires one.
  const flat: string[] = ['Host', `127.0.0.1:${port}`];
  for (const [name, value] of request.headers) flat.push(name, Buffer.from(value, 'utf8').toString('latin1'));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.path, headers: flat, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** The status, headers and body of a raw HTTP/1.1 answer, or null when the server sent nothing. */
export interface RawAnswer {
  status: number | null;
  head: string;
  body: string;
}

/**
 * Writes bytes straight to the API's socket, for requests no HTTP client will send (a NUL in a header,
 * conflicting lengths, an unknown method), and reads until the server closes or `timeoutMs` passes.
 */
export function sendRawBytes(port: number, bytes: Buffer, timeoutMs = 2_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      resolve({ status: status ? Number(status) : null, head, body: split < 0 ? '' : text.slice(split + 4) });
    };
    // The server answers a broken request and closes; a request it is still waiting on ends at the timeout.
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', finish);
    socket.on('error', () => undefined);
  });
}
