import fc from 'fast-check';
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

  test('frames read out of their chunk come out as frame-by-frame decoding gives them', () => {
    const { r, messages, errors } = reader({ framing: 'ndjson', maxFrameBytes: 40 });
    // A chunk that starts inside a frame, with CRLF, blank and oversized lines between ASCII frames.
    r.push(bytes('{"id":0,'));
    r.push(bytes(`"t":"x"}\r\n{"id":1}\r\n\n  \n{"pad":"${'x'.repeat(50)}"}\n{"id":2}\n{"id":3`));
    r.push(bytes('}\n'));
    expect(messages).toEqual([{ id: 0, t: 'x' }, { id: 1 }, { id: 2 }, { id: 3 }]);
    expect(errors.map((error) => (error as LocalError).code)).toEqual(['FRAME_TOO_LARGE']);
  });

  test('non-ASCII and byte order marks read out of the chunk as when decoded alone; invalid UTF-8 refuses only its frame', () => {
    const { r, messages, errors } = reader({ framing: 'ndjson' });
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    r.push(Buffer.concat([bytes('{"id":1}\n'), bom, bytes('{"id":2}\n{"t":"ñ"}\n{"id":3}\n')]));
    r.push(Buffer.concat([bytes('{"id":4}\n"'), Buffer.from([0xc3, 0x28]), bytes('"\n{"id":5}\n')]));
    expect(messages).toEqual([{ id: 1 }, { id: 2 }, { t: 'ñ' }, { id: 3 }, { id: 4 }, { id: 5 }]);
    expect(errors.map((error) => (error as LocalError).code)).toEqual(['PARSE_ERROR']);
    expect(errors[0]!.message).toContain('UTF-8');
  });

  test('a Content-Length body that ends inside a character is invalid UTF-8, whatever follows it in the chunk', () => {
    const { r, messages, errors } = reader({ framing: 'content-length' });
    const cut = Buffer.concat([bytes('Content-Length: 2\r\n\r\n1'), Buffer.from([0xc3]), Buffer.from([0xa9]), bytes('\n')]);
    r.push(Buffer.concat([bytes('Content-Length: 8\r\n\r\n{"id":1}'), cut, bytes('Content-Length: 8\r\n\r\n{"id":3}\n')]));
    expect(messages).toEqual([{ id: 1 }, { id: 3 }]);
    expect(errors[0]).toMatchObject({ code: 'PARSE_ERROR', message: expect.stringContaining('UTF-8') });
  });

  test('any stream, cut anywhere, gives the messages and errors that one byte per push gives', () => {
    const line = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }).map((value) => bytes(JSON.stringify(value))),
      fc.jsonValue({ stringUnit: 'binary', maxDepth: 2 }).map((value) => bytes(JSON.stringify(value))),
      fc.constantFrom(bytes(''), bytes('  '), bytes('{bad'), Buffer.from([0x22, 0xff, 0x22]), Buffer.from([0xef, 0xbb, 0xbf, 0x31])),
    );
    const stream = fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 12 });
    const run = (chunks: Uint8Array[]) => {
      const { r, messages, errors } = reader({ framing: 'ndjson', maxFrameBytes: 60 });
      for (const chunk of chunks) r.push(chunk);
      r.end();
      // Codes only: how an oversized line is worded depends on whether its newline was in sight.
      return { messages, errors: errors.map((error) => (error as LocalError).code) };
    };
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 8 }), (lines, cuts) => {
        const all = Buffer.concat(lines.flatMap(([payload, eol]) => [payload, bytes(eol)]));
        const points = [...new Set(cuts.map((cut) => cut % (all.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((from, i) => all.subarray(from, [...points, all.length][i]));
        const oneByOne = Array.from(all, (_, i) => all.subarray(i, i + 1));
        expect(run(chunks)).toEqual(run(oneByOne));
      }),
    );
  });
});
