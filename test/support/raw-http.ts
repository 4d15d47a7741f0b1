import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with the path exactly as given (fetch would normalise `..`, `//` and encodings away). */
export const rawRequest = (
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    if (body !== undefined) outgoing.write(body);
    outgoing.end();
  });

/** Bytes written to the server as they are, for requests no HTTP client would send; the whole answer as text. */
export const rawExchange = (baseUrl: string, text: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });

/** Sends the start of a request and hangs up, as a client that gave up would. */
export const hangUpMidRequest = (baseUrl: string, text: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () =>
      socket.write(text, () => setTimeout(() => socket.destroy(), 50)),
    );
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
