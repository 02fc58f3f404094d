/**
 * The terminal answers, with fake terminal streams: typed values are parsed and checked, questions go to the
 * output given (stderr in the CLI) and nowhere else, requests arriving together are asked one after the other, and
 * the answers file is read strictly.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { ElicitParams } from '@wiremcp/client';
import { parseElicitAnswers } from './input-answers.js';
import { parseFieldAnswer, TerminalPrompts } from './terminal-prompts.js';

function terminal(): { prompts: TerminalPrompts; type: (text: string) => void; end: () => void; shown: () => string } {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  let shown = '';
  const prompts = new TerminalPrompts({ input, output: { write: (text: string) => (shown += text), isTTY: true } });
  return { prompts, type: (text) => input.write(text), end: () => input.end(), shown: () => shown };
}

const FORM = {
  mode: 'form',
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2 },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      colour: { type: 'string', enum: ['red', 'green'], default: 'red' },
      tools: { type: 'array', items: { enum: ['saw', 'drill', 'plane'] } },
      ok: { type: 'boolean' },
    },
    required: ['name', 'ok'],
  },
} as unknown as ElicitParams;

describe('parseFieldAnswer', () => {
  test.each([
    [{ type: 'integer', minimum: 1 }, '0', /at least 1/],
    [{ type: 'integer' }, '1.5', /whole number/],
    [{ type: 'number' }, 'abc', /a number/],
    [{ type: 'boolean' }, 'perhaps', /y or n/],
    [{ type: 'string', enum: ['a', 'b'] }, '3', /choose one of 1\) a, 2\) b/],
  ])('%j refuses %j', (field, text, message) => {
    const value = parseFieldAnswer(field, text);
    expect(value).toBeInstanceOf(Error);
    expect((value as Error).message).toMatch(message);
  });

  test('choices by number or value; several for an array; empty is no answer', () => {
    expect(parseFieldAnswer({ type: 'string', enum: ['a', 'b'] }, '2')).toBe('b');
    expect(parseFieldAnswer({ type: 'string', oneOf: [{ const: 'x1', title: 'Ex' }] }, 'Ex')).toBe('x1');
    expect(parseFieldAnswer({ type: 'array', items: { enum: ['p', 'q', 'r'] } }, '1, r')).toEqual(['p', 'r']);
    expect(parseFieldAnswer({ type: 'boolean' }, 'Yes')).toBe(true);
    expect(parseFieldAnswer({ type: 'string' }, '   ')).toBeUndefined();
  });
});

describe('TerminalPrompts', () => {
  test('a form: bad values asked again, defaults kept, the whole answer checked against the schema', async () => {
    const { prompts, type, shown } = terminal();
    const answer = prompts.elicitation(FORM);
    // Typed ahead: each line waits for its question. "A" (too short for minLength 2) fails the schema check at the end.
    type('x\naccept\n\nA\n200\n30\n\n2,3\nmaybe\ny\n');
    type('Ada\n\n\n\ny\n');
    await expect(answer).resolves.toEqual({ action: 'accept', content: { name: 'Ada', colour: 'red', ok: true } });
    expect(shown()).toMatch(/The server asks: Who are you\?/);
    expect(shown()).toMatch(/ {4}required\n/);
    expect(shown()).toMatch(/at most 150/);
    expect(shown()).toMatch(/answer y or n/);
    expect(shown()).toMatch(/does not fit the form: .*name/);
  });

  test('decline and cancel; a URL is shown with its host and never accepted without the user', async () => {
    const { prompts, type, shown } = terminal();
    const declined = prompts.elicitation(FORM);
    const url = prompts.elicitation({
      mode: 'url',
      message: 'Log in',
      url: 'https://auth.example.com/x?y=1',
      elicitationId: 'e1',
    } as ElicitParams);
    type('d\nc\n');
    await expect(declined).resolves.toEqual({ action: 'decline' });
    await expect(url).resolves.toEqual({ action: 'cancel' });
    expect(shown()).toMatch(/URL: https:\/\/auth\.example\.com\/x\?y=1\n {2}host: auth\.example\.com/);
  });

  test('sampling shows the messages; an empty reply declines; the end of input is no answer', async () => {
    const { prompts, type, shown } = terminal();
    const reply = prompts.sampling({ messages: [{ role: 'user', content: { type: 'text', text: 'hello?' } }], maxTokens: 5 } as never);
    type('hi there\n');
    await expect(reply).resolves.toBe('hi there');
    expect(shown()).toMatch(/user: hello\?\n {2}\(at most 5 tokens\)/);
    const declined = prompts.sampling({ messages: [] } as never);
    type('\n');
    await expect(declined).rejects.toThrow(/declined/);

    const ended = terminal();
    const roots = ended.prompts.roots('/home/me');
    ended.type('/a, /b\n');
    await expect(roots).resolves.toEqual(['/a', '/b']);
    ended.end();
    await expect(ended.prompts.sampling({ messages: [] } as never)).rejects.toThrow(/the terminal input ended/);
  });
});

describe('parseElicitAnswers', () => {
  test('one answer or a list; plain objects are accepted content', () => {
    expect(parseElicitAnswers('{"name":"Ada"}', 'f')).toEqual([{ action: 'accept', content: { name: 'Ada' } }]);
    expect(parseElicitAnswers('[{"action":"decline"},{"action":"accept","content":{"a":1}}]', 'f')).toEqual([
      { action: 'decline' },
      { action: 'accept', content: { a: 1 } },
    ]);
  });

  test.each([
    ['[]', /no answer/],
    ['[1]', /f\[0\]: an answer is a JSON object/],
    ['{"action":"maybe"}', /accept, decline or cancel/],
    ['{"action":"accept","content":[1]}', /content is a JSON object/],
    ['{', /not JSON/],
  ])('%s is refused', (text, message) => {
    expect(() => parseElicitAnswers(text, 'f')).toThrow(message);
  });
});
