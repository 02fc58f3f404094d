import { describe, expect, test } from 'vitest';
import { acceptance, hostAllowed, isJsonContentType, isLoopbackAddress, originAllowed } from './request-checks.js';

const loopback = { localAddress: '127.0.0.1', localPort: 3000 };
const remote = { localAddress: '10.0.0.5', localPort: 443 };

describe('Host (DNS-rebinding protection)', () => {
  test.each([
    ['localhost:3000', loopback, true],
    ['127.0.0.1:3000', loopback, true],
    ['[::1]:3000', { localAddress: '::1', localPort: 3000 }, true],
    ['LOCALHOST:3000', loopback, true],
    ['localhost:3001', loopback, false],
    ['evil.example.com', loopback, false],
    ['evil.example.com:3000', loopback, false],
    ['localhost.evil.com:3000', loopback, false],
    ['evil.example.com', remote, true],
    ['anything', undefined, true],
  ])('%s on %j: %s', (host, connection, allowed) => {
    expect(hostAllowed(host, undefined, connection)).toBe(allowed);
  });

  test('an allow-list: names with any port, or exact host:port; false turns the check off', () => {
    expect(hostAllowed('mcp.example.com:8443', ['mcp.example.com'], remote)).toBe(true);
    expect(hostAllowed('mcp.example.com:8443', ['mcp.example.com:443'], remote)).toBe(false);
    expect(hostAllowed('other.example.com', ['mcp.example.com'], remote)).toBe(false);
    expect(hostAllowed('evil.example.com', false, loopback)).toBe(true);
  });

  test('loopback addresses', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.1', '0.0.0.0', '::', undefined]) expect(isLoopbackAddress(address)).toBe(false);
  });
});

describe('Origin', () => {
  test.each([
    [null, 'localhost:3000', loopback, true],
    ['http://localhost:3000', 'localhost:3000', loopback, true],
    ['http://localhost:5173', 'localhost:3000', loopback, true],
    ['http://127.0.0.1:8080', 'localhost:3000', loopback, true],
    ['http://evil.example.com', 'localhost:3000', loopback, false],
    ['null', 'localhost:3000', loopback, false],
    ['https://mcp.example.com', 'mcp.example.com', remote, true],
    ['http://localhost:5173', 'mcp.example.com', remote, false],
    ['file://x', 'localhost:3000', loopback, false],
    ['not a url', 'localhost:3000', loopback, false],
  ])('%s for Host %s: %s', (origin, host, connection, allowed) => {
    expect(originAllowed(origin, host, undefined, connection)).toBe(allowed);
  });

  test('an allow-list compares scheme, host and port; * allows all', () => {
    expect(originAllowed('https://app.example.com', 'x', ['https://app.example.com'], remote)).toBe(true);
    expect(originAllowed('https://APP.example.com:443', 'x', ['https://app.example.com'], remote)).toBe(true);
    expect(originAllowed('http://app.example.com', 'x', ['https://app.example.com'], remote)).toBe(false);
    expect(originAllowed('http://anything', 'x', '*', remote)).toBe(true);
  });
});

describe('content negotiation', () => {
  test('Content-Type', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=UTF-8')).toBe(true);
    expect(isJsonContentType('application/json;charset="utf-8"')).toBe(true);
    expect(isJsonContentType('application/json; charset=iso-8859-1')).toBe(false);
    expect(isJsonContentType('text/json')).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
  });

  test('Accept', () => {
    expect(acceptance('application/json, text/event-stream')).toEqual({ json: true, sse: true });
    expect(acceptance('text/event-stream;q=0.9, application/json')).toEqual({ json: true, sse: true });
    expect(acceptance('*/*')).toEqual({ json: true, sse: true });
    expect(acceptance('application/*, text/*')).toEqual({ json: true, sse: true });
    expect(acceptance('application/json')).toEqual({ json: true, sse: false });
    expect(acceptance('application/json, text/event-stream; q=0')).toEqual({ json: true, sse: false });
    expect(acceptance(null)).toEqual({ json: false, sse: false });
  });
});
