import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bytesEqual, chunkings, concatBytes, decodeAll, text } from './decode.test-util.js';
import { encodeFrame } from './encode.js';

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
}

/** The lines of an NDJSON fixture as bytes, without their newline. */
function lines(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let from = 0, nl = bytes.indexOf(10); nl !== -1; from = nl + 1, nl = bytes.indexOf(10, from)) out.push(bytes.slice(from, nl));
  return out;
}

function payloads(r: ReturnType<typeof decodeAll>): Uint8Array[] {
  return r.events.map((e) => {
    if (e.kind === 'error') throw e.error;
    return e.payload;
  });
}

// Seed 002, "Walking through one round-trip with bytes on the wire": stdin from the client.
const STDIN_MESSAGES = [
  {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'test', version: '0.1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'conjugate', arguments: { verb: 'eat', tense: 'past simple', person: '3rd singular' } },
  },
];

// The same section, stdout from the server. Its second line is printed with the seed's own elision
// `{...}` and is kept as printed; it is checked byte for byte instead of as JSON.
const STDOUT_MESSAGES = [
  {
    jsonrpc: '2.0',
    id: 0,
    result: {
      protocolVersion: '2024-11-05',
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: 'minimcp-grammar', version: '0.1.0' },
    },
  },
  '{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "conjugate", "inputSchema": {...}}]}}',
  { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'ate' }], isError: false } },
];

// Seed 000, "JSON-RPC 2.0 framing (stdio)" / initialize, client → server.
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2024-11-05',
    capabilities: { tools: {} },
    clientInfo: { name: 'miniagent-client', version: '0.1' },
  },
};

describe('seed 002 wire bytes (NDJSON)', () => {
  const stdin = fixture('seed-002-stdin.ndjson');
  const stdout = fixture('seed-002-stdout.ndjson');

  it('holds the four stdin lines and three stdout lines of the seed', () => {
    expect(lines(stdin)).toHaveLength(4);
    expect(lines(stdout)).toHaveLength(3);
    expect(stdin[stdin.length - 1]).toBe(10);
    expect(stdout[stdout.length - 1]).toBe(10);
  });

  for (const framing of ['ndjson', 'auto'] as const) {
    it(`decodes stdin to exactly the client's messages under every chunking (${framing})`, () => {
      const expectedLines = lines(stdin);
      for (const [name, chunks] of chunkings(stdin)) {
        const got = payloads(decodeAll(chunks, { framing }));
        expect(
          got.map((p) => JSON.parse(text(p)) as unknown),
          name,
        ).toEqual(STDIN_MESSAGES);
        expect(
          got.every((p, i) => bytesEqual(p, expectedLines[i]!)),
          name,
        ).toBe(true);
      }
    });

    it(`decodes stdout to exactly the server's lines under every chunking (${framing})`, () => {
      for (const [name, chunks] of chunkings(stdout)) {
        const got = payloads(decodeAll(chunks, { framing })).map(text);
        expect(got, name).toHaveLength(3);
        expect(JSON.parse(got[0]!), name).toEqual(STDOUT_MESSAGES[0]);
        expect(got[1], name).toBe(STDOUT_MESSAGES[1]);
        expect(() => JSON.parse(got[1]!), name).toThrow(SyntaxError);
        expect(JSON.parse(got[2]!), name).toEqual(STDOUT_MESSAGES[2]);
      }
    });
  }

  it('carries the same session over Content-Length framing unchanged', () => {
    const framed = concatBytes(...lines(stdin).map((line) => encodeFrame(line, 'content-length')));
    for (const [name, chunks] of chunkings(framed)) {
      const r = decodeAll(chunks);
      expect(r.decoder.framing).toBe('content-length');
      expect(
        payloads(r).map((p) => JSON.parse(text(p)) as unknown),
        name,
      ).toEqual(STDIN_MESSAGES);
    }
  });
});

describe('seed 000 initialize request (Content-Length)', () => {
  const framed = fixture('seed-000-initialize.lsp');

  it('declares the body length in bytes', () => {
    const separator = text(framed).indexOf('\r\n\r\n') + 4;
    expect(text(framed.subarray(0, separator))).toBe('Content-Length: 193\r\n\r\n');
    expect(framed.length - separator).toBe(193);
  });

  for (const framing of ['content-length', 'auto'] as const) {
    it(`decodes to exactly the initialize request under every chunking (${framing})`, () => {
      for (const [name, chunks] of chunkings(framed)) {
        const got = payloads(decodeAll(chunks, { framing }));
        expect(got, name).toHaveLength(1);
        expect(JSON.parse(text(got[0]!)), name).toEqual(INITIALIZE);
        // Re-encoding the payload gives the fixture back byte for byte.
        expect(bytesEqual(encodeFrame(got[0]!, 'content-length'), framed), name).toBe(true);
      }
    });
  }

  it('keeps the multi-line body that NDJSON could not carry', () => {
    const got = payloads(decodeAll([framed]));
    expect(text(got[0]!).split('\n')).toHaveLength(10);
    expect(() => encodeFrame(got[0]!, 'ndjson')).toThrow(/raw newline/);
  });
});
