import { describe, expect, test } from 'vitest';
import { classifyHost, classifyIp } from './address.js';

describe('classifyIp', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.1', 'private'],
    ['::', 'private'],
    ['fd00::1', 'private'],
    ['fe80::1%eth0', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'private'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyIp(address)).toBe(kind);
  });

  test('non-literals are not classified', () => {
    expect(classifyIp('example.com')).toBeUndefined();
    expect(classifyIp('1.2.3')).toBeUndefined();
    expect(classifyIp('1::2::3')).toBeUndefined();
  });
});

describe('classifyHost', () => {
  test('uses the URL parser normalisation and RFC 6761 localhost names', () => {
    expect(classifyHost(new URL('http://2130706433/').hostname)).toBe('loopback');
    expect(classifyHost(new URL('http://0x7f.1/').hostname)).toBe('loopback');
    expect(classifyHost('localhost')).toBe('loopback');
    expect(classifyHost('api.localhost.')).toBe('loopback');
    expect(classifyHost('mcp.example.com')).toBe('name');
  });
});
