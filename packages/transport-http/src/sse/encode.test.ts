import { describe, expect, test } from 'vitest';
import { encodeSseComment, encodeSseEvent, encodeSseMessage } from './encode.js';

describe('encodeSseEvent', () => {
  test('fields in order, then the blank line that dispatches the event', () => {
    expect(encodeSseEvent({ id: 'a_1', event: 'endpoint', retry: 500, data: '/messages?sessionId=x' })).toBe(
      'id: a_1\nevent: endpoint\nretry: 500\ndata: /messages?sessionId=x\n\n',
    );
  });

  test('a priming event: an id and empty data', () => {
    expect(encodeSseEvent({ id: 's_0', retry: 1000 })).toBe('id: s_0\nretry: 1000\ndata:\n\n');
  });

  test('each line of the data becomes a data field, whatever the line break', () => {
    expect(encodeSseEvent({ data: 'one\ntwo\r\nthree\rfour' })).toBe('data: one\ndata: two\ndata: three\ndata: four\n\n');
  });

  test('refuses what would change the meaning of the stream', () => {
    expect(() => encodeSseEvent({ id: 'a\nb' })).toThrow(TypeError);
    expect(() => encodeSseEvent({ id: 'a\0b' })).toThrow(TypeError);
    expect(() => encodeSseEvent({ event: 'x\ry' })).toThrow(TypeError);
    expect(() => encodeSseEvent({ retry: -1 })).toThrow(TypeError);
    expect(() => encodeSseEvent({ retry: 1.5 })).toThrow(TypeError);
  });
});

describe('encodeSseMessage and encodeSseComment', () => {
  test('one JSON message, with or without an id', () => {
    const json = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { text: 'a\nb\u2028' } });
    expect(encodeSseMessage(json)).toBe(`data: ${json}\n\n`);
    expect(encodeSseMessage(json, 'k_3')).toBe(`id: k_3\ndata: ${json}\n\n`);
    expect(json.includes('\n')).toBe(false);
  });

  test('comments are single lines', () => {
    expect(encodeSseComment()).toBe(':\n\n');
    expect(encodeSseComment('keep\nalive')).toBe(': keep alive\n\n');
  });
});
