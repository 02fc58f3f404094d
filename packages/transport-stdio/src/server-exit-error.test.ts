import { describe, expect, test } from 'vitest';
import { formatCommand, serverExitError, spawnError } from './server-exit-error.js';
import { StderrTail } from './stderr-tail.js';

const base = { command: 'node server.js', pid: 42, exitCode: undefined, signal: undefined, stderrTail: '' };

describe('server exit errors', () => {
  test('formatCommand quotes what a shell would need quoted', () => {
    expect(formatCommand('node', ['server.js', '--root', '/my files', ''])).toBe('node server.js --root "/my files" ""');
  });

  test('exit code, signal, or what happened, then the stderr lines', () => {
    expect(serverExitError({ ...base, exitCode: 1 }, undefined, 'Error: boom').message).toBe(
      "Server process 'node server.js' exited with code 1: Error: boom",
    );
    expect(serverExitError({ ...base, exitCode: null, signal: 'SIGSEGV' }, undefined, '').message).toBe(
      "Server process 'node server.js' was killed by signal SIGSEGV",
    );
    const error = serverExitError(base, 'closed its stdout', '');
    expect(error).toMatchObject({ code: 'SERVER_EXITED', message: "Server process 'node server.js' closed its stdout", details: base });
  });

  test('spawn errors name the command and hint at the cause', () => {
    const enoent = Object.assign(new Error('spawn nope ENOENT'), { code: 'ENOENT' });
    expect(spawnError('nope', enoent)).toMatchObject({
      code: 'SERVER_EXITED',
      message: "Could not start server process 'nope': spawn nope ENOENT (command not found: check the command, PATH and cwd)",
      cause: enoent,
    });
  });
});

describe('StderrTail', () => {
  test('keeps the last characters, joins UTF-8 split across chunks', () => {
    const tail = new StderrTail(10);
    const bytes = Buffer.from('abc ñandú xyz');
    tail.append(bytes.subarray(0, 5)); // cuts 'ñ' in half
    tail.append(bytes.subarray(5));
    expect(tail.text).toBe(' ñandú xyz'); // the last 10 of 'abc ñandú xyz', with 'ñ' intact
  });

  test('lastLines: the last non-empty lines, bounded', () => {
    const tail = new StderrTail();
    tail.append(Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n\n');
    expect(tail.lastLines()).toBe(Array.from({ length: 8 }, (_, i) => `line ${i + 12}`).join('\n'));
    const long = new StderrTail();
    long.append('x'.repeat(3000));
    expect(long.lastLines()).toHaveLength(1000);
    expect(long.lastLines().startsWith('…')).toBe(true);
    expect(new StderrTail().lastLines()).toBe('');
  });
});
