/**
 * The lingering close after an early 413: a client still uploading a body over the limit (declared with
 * Content-Length, or chunked) reads the whole 413 instead of a connection reset, every time; the endpoint keeps
 * serving afterwards. The server runs the built package in a worker thread: with server and client on one event
 * loop, the client reads the response before the server gets to close the socket, which hides the reset.
 */
import { request as httpRequest } from 'node:http';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, test } from 'vitest';
import { BOTH, meta, modernHeaders } from '../server/http.test-util.js';

const LIMIT = 1024 * 1024;
const UPLOAD = 6 * 1024 * 1024;

const SERVER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { McpServer } = await import(workerData.server);
  const { createHttpHandler } = await import(workerData.http);
  const { listen } = await import(workerData.node);
  const server = new McpServer({ name: 'linger-test', version: '1.0.0' });
  const listening = await listen(createHttpHandler(server, { maxBodyBytes: workerData.limit }));
  parentPort.postMessage(listening.address.port);
})();
`;

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

/** Starts the server in a worker thread (from dist) and resolves with its port. */
function serveInWorker(): Promise<number> {
  const dist = (path: string): string => new URL(path, import.meta.url).href;
  worker = new Worker(SERVER, {
    eval: true,
    // Without the test run's `wiremcp-source` condition: the worker loads the built packages.
    execArgv: [],
    workerData: {
      server: dist('../../../server/dist/index.js'),
      http: dist('../../dist/index.js'),
      node: dist('../../dist/node/index.js'),
      limit: LIMIT,
    },
  });
  const started = worker;
  return new Promise((resolve, reject) => {
    started.once('message', (port: number) => resolve(port));
    started.once('error', reject);
  });
}

/** Uploads `size` bytes in 64 KiB writes, stopping once the response arrives; resolves with the response or the socket error. */
function upload(port: number, size: number, chunked: boolean): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: BOTH };
    if (!chunked) headers['content-length'] = String(size);
    const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered) resolve({ error: error.code ?? error.message });
    });
    const pump = (): void => {
      while (!answered && written < size) {
        written += chunk.byteLength;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('an upload over the body limit', () => {
  test.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('%s gets its 413 every time, and the endpoint keeps serving', async (_name, chunked) => {
    const port = await serveInWorker();
    for (let round = 0; round < 5; round++) {
      const answer = await upload(port, UPLOAD, chunked);
      expect(answer.error).toBeUndefined();
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body!)).toMatchObject({ id: null, error: { code: -32600 } });
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } });
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: modernHeaders('server/discover'), body });
    expect(response.status).toBe(200);
  });
});
