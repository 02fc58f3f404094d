import { LocalError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { MessageReader, type MessageReaderOptions } from './message-reader.js';

function reader(options: Partial<MessageReaderOptions> = {}, deliver?: (message: unknown) => void) {
  const messages: unknown[] = [];
  const errors: Error[] = [];
  const r = new MessageReader(
    { framing: 'auto', ...options },
    { deliver: deliver ?? ((message) => messages.push(message)), fail: (error) => errors.push(error) },
  );
  return { r, messages, errors };
}

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('MessageReader', () => {
  test('delivers every frame of a chunk, and frames split across chunks', () => {
    const { r, messages, errors } = reader();
    const text = '{"id":1}\n{"id":2}\n{"id":3,"t":"ñ"}\n';
    r.push(bytes(text.slice(0, 20)));
    // Split inside the two-byte 'ñ' too.
    const rest = bytes(text.slice(20));
    for (let i = 0; i < rest.length; i++) r.push(rest.subarray(i, i + 1));
    expect(messages).toEqual([{ id: 1 }, { id: 2 }, { id: 3, t: 'ñ' }]);
    expect(errors).toEqual([]);
    expect(r.framing).toBe('ndjson');
  });

  test('string chunks (a stream with an encoding set) are read as UTF-8', () => {
    const { r, messages } = reader({ framing: 'ndjson' });
    r.push('{"t":"日本"}\n');
    expect(messages).toEqual([{ t: '日本' }]);
  });

  test('errors become LocalErrors and reading goes on', () => {
    const { r, messages, errors } = reader({ maxFrameBytes: 30 });
    r.push(bytes(`{bad\n{"id":1}\n{"pad":"${'x'.repeat(40)}"}\n{"id":2}\n`));
    r.push(Buffer.concat([bytes('"'), Buffer.from([0xff]), bytes('"\n{"id":3}\n')]));
    expect(messages).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(errors.map((error) => (error as LocalError).code)).toEqual(['PARSE_ERROR', 'FRAME_TOO_LARGE', 'PARSE_ERROR']);
    expect(errors[1]).toMatchObject({ details: { limit: 30, framingCode: 'FRAME_TOO_LARGE' } });
  });

  test('Content-Length framing problems are FRAMING_ERROR; a truncated frame is reported at end()', () => {
    const { r, messages, errors } = reader({ framing: 'content-length' });
    r.push(bytes('Content-Length: x\r\n\r\nContent-Length: 8\r\n\r\n{"id":1}Content-Length: 20\r\n\r\n{"i'));
    r.end();
    expect(messages).toEqual([{ id: 1 }]);
    expect(errors.map((error) => (error as LocalError).code)).toEqual(['FRAMING_ERROR', 'FRAMING_ERROR']);
    expect(errors[1]).toMatchObject({ details: { framingCode: 'TRUNCATED_FRAME' } });
  });

  test('end() delivers a last line without a newline; pushes after end() are ignored', () => {
    const { r, messages } = reader({ framing: 'ndjson' });
    r.push(bytes('{"id":1}'));
    expect(messages).toEqual([]);
    r.end();
    r.end();
    r.push(bytes('{"id":2}\n'));
    expect(messages).toEqual([{ id: 1 }]);
  });

  test('a throwing consumer is reported and loses no frame', () => {
    const seen: unknown[] = [];
    const { r, errors } = reader({}, (message) => {
      seen.push(message);
      if ((message as { id: number }).id === 2) throw new Error('consumer bug');
    });
    r.push(bytes('{"id":1}\n{"id":2}\n{"id":3}\n'));
    expect(seen).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(errors.map((error) => error.message)).toEqual(['consumer bug']);
  });
});
