/**
 * Test helper: serves a web-standard handler (Request → Response) on 127.0.0.1 with node:http, the way an HTTP
 * transport would, and stops it (dropping open connections) on close.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Served {
  readonly url: string;
  close(): Promise<void>;
}

export type Handler = (request: Request) => Response | Promise<Response>;

async function toRequest(incoming: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = incoming.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
  return new Request(new URL(incoming.url ?? '/', origin), { method, headers, body });
}

async function send(response: Response, out: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  out.writeHead(response.status, headers);
  if (!response.body) return void out.end();
  // Streamed, so an endless body stops as soon as the client goes away.
  const reader = response.body.getReader();
  out.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (done || out.destroyed) break;
    if (!out.write(value)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          out.off('drain', done);
          out.off('close', done);
          resolve();
        };
        out.on('drain', done);
        out.on('close', done);
      });
    }
  }
  out.end();
}

/** Starts serving `handler`; `handler` may be swapped later through the returned setter. */
export async function serve(handler: Handler): Promise<Served> {
  let origin = '';
  const server = createServer((incoming, out) => {
    void (async () => {
      try {
        await send(await handler(await toRequest(incoming, origin)), out);
      } catch (error) {
        out.writeHead(500, { 'content-type': 'text/plain' });
        out.end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON response. */
export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
}
