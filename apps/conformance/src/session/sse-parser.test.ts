import { describe, expect, test } from 'vitest';
import { SseParser } from './sse-parser.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('SseParser', () => {
  test('events, multi-line data, ids, retry, comments and custom event types', () => {
    const parser = new SseParser();
    const events = parser.push(
      bytes(': keep-alive\nid: 7\nevent: endpoint\ndata: /message?sessionId=1\n\ndata: {"a":\ndata: 1}\nretry: 500\n\n'),
    );
    expect(events).toEqual([
      { event: 'endpoint', data: '/message?sessionId=1', id: '7' },
      { event: 'message', data: '{"a":\n1}', id: '7', retry: 500 },
    ]);
  });

  test('any chunking, CRLF split across chunks, UTF-8 split across chunks', () => {
    const text = 'data: {"text":"comió"}\r\n\r\ndata: x\r\n\r\n';
    const all = bytes(text);
    for (let cut = 1; cut < all.length; cut += 1) {
      const parser = new SseParser();
      const events = [...parser.push(all.subarray(0, cut)), ...parser.push(all.subarray(cut))];
      expect(events.map((e) => e.data)).toEqual(['{"text":"comió"}', 'x']);
    }
  });

  test('a priming event (id, empty data) dispatches with empty data; no data dispatches nothing', () => {
    const parser = new SseParser();
    expect(parser.push(bytes('id: 1\ndata:\n\nevent: ping\n\n'))).toEqual([{ event: 'message', data: '', id: '1' }]);
  });

  test('an event cut off by the end of the stream is discarded', () => {
    const parser = new SseParser();
    expect(parser.push(bytes('data: partial\n'))).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});
