import { spawn } from 'node:child_process';
import { afterEach, expect, test } from 'vitest';
import { ChildProcessSet } from './child-process-set.js';

const set = new ChildProcessSet();
afterEach(() => set.killAll());

function exitOf(child: ReturnType<typeof spawn>): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

test('tracks children until they exit', async () => {
  const quick = set.add(spawn(process.execPath, ['-e', '']));
  const slow = set.add(spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']));
  expect(set.size).toBe(2);
  expect(await exitOf(quick)).toEqual({ code: 0, signal: null });
  expect(set.size).toBe(1);
  set.killAll();
  expect(set.size).toBe(0);
  expect(await exitOf(slow)).toEqual({ code: null, signal: 'SIGKILL' });
});

test('killAll signals a whole process group: the grandchild goes too', async () => {
  // The grandchild shares the shell's stdout pipe: the pipe ends only when both have exited.
  const child = set.add(spawn('sh', ['-c', 'sleep 300 & echo started; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] }), {
    processGroup: true,
  });
  let output = '';
  const ended = new Promise((resolve) => child.stdout!.on('end', resolve));
  await new Promise<void>((resolve) =>
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('started')) resolve();
    }),
  );
  set.killAll('SIGTERM');
  expect(await exitOf(child)).toEqual({ code: null, signal: 'SIGTERM' });
  await ended;
});

test("a child that cannot start is forgotten, and its error is still the caller's to handle", async () => {
  const child = set.add(spawn('wiremcp-no-such-command'));
  // The set adds no 'error' listener: without this one, the failure would surface as an unhandled error.
  expect(child.listenerCount('error')).toBe(0);
  const error = new Promise<Error>((resolve) => child.once('error', resolve));
  await new Promise((resolve) => child.once('close', resolve));
  expect((await error).message).toMatch(/ENOENT/);
  expect(set.size).toBe(0);
});
