// The stop sequence, step by step on a child double under fake timers, and against real processes (a process
// group with a grandchild that must not survive).
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { exitOf, isAlive, onCleanup, stopEverything, when } from './child-processes.test-util.js';
import { signalProcessGroup, stopChildProcess, waitForExit } from './stop-child-process.js';

afterEach(async () => {
  vi.useRealTimers();
  await stopEverything();
});

/** A ChildProcess double: records each step with the fake clock's time; `exitOn` decides which step ends it. */
function fakeChild(exitOn: 'stdin' | 'SIGTERM' | 'SIGKILL' | 'never') {
  const steps: Array<[string, number]> = [];
  const child = new EventEmitter() as EventEmitter & {
    pid: number;
    stdin: PassThrough;
    exitCode: number | null;
    signalCode: NodeJS.Signals | null;
    kill(signal: NodeJS.Signals): boolean;
  };
  const exit = (code: number | null, signal: NodeJS.Signals | null): void => {
    child.exitCode = code;
    child.signalCode = signal;
    child.emit('exit', code, signal);
  };
  Object.assign(child, { pid: 4242, stdin: new PassThrough(), exitCode: null, signalCode: null });
  child.stdin.on('finish', () => {
    steps.push(['stdin closed', Date.now()]);
    if (exitOn === 'stdin') exit(0, null);
  });
  child.kill = (signal) => {
    steps.push([signal, Date.now()]);
    if (exitOn === signal) exit(null, signal);
    return true;
  };
  return { child: child as unknown as ChildProcess, steps };
}

describe('stopChildProcess, step by step', () => {
  test('a child that exits when its stdin closes gets no signal', async () => {
    vi.useFakeTimers({ now: 0 });
    const { child, steps } = fakeChild('stdin');
    const stopping = stopChildProcess(child, { graceMs: 1000 });
    await vi.runAllTimersAsync();
    expect(await stopping).toEqual({ stoppedBy: 'stdin-closed', exitCode: 0, signalCode: null });
    expect(steps).toEqual([['stdin closed', 0]]);
  });

  test('stdin, then SIGTERM after graceMs', async () => {
    vi.useFakeTimers({ now: 0 });
    const { child, steps } = fakeChild('SIGTERM');
    const stopping = stopChildProcess(child, { graceMs: 1000 });
    await vi.runAllTimersAsync();
    expect(await stopping).toEqual({ stoppedBy: 'SIGTERM', exitCode: null, signalCode: 'SIGTERM' });
    expect(steps).toEqual([
      ['stdin closed', 0],
      ['SIGTERM', 1000],
    ]);
  });

  test('stdin, SIGTERM after graceMs, SIGKILL after termGraceMs', async () => {
    vi.useFakeTimers({ now: 0 });
    const { child, steps } = fakeChild('SIGKILL');
    const stopping = stopChildProcess(child, { graceMs: 1000, termGraceMs: 300 });
    await vi.runAllTimersAsync();
    expect(await stopping).toEqual({ stoppedBy: 'SIGKILL', exitCode: null, signalCode: 'SIGKILL' });
    expect(steps).toEqual([
      ['stdin closed', 0],
      ['SIGTERM', 1000],
      ['SIGKILL', 1300],
    ]);
  });

  test('after SIGKILL it waits for the exit, however long it takes', async () => {
    vi.useFakeTimers({ now: 0 });
    const { child } = fakeChild('never');
    let settled = false;
    const stopping = stopChildProcess(child, { graceMs: 10 }).then((result) => {
      settled = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
    child.emit('exit', null, 'SIGKILL');
    Object.assign(child, { signalCode: 'SIGKILL' });
    expect((await stopping).stoppedBy).toBe('SIGKILL');
  });

  test('a child that already exited, or never started, is left alone', async () => {
    const { child, steps } = fakeChild('stdin');
    Object.assign(child, { exitCode: 3 });
    expect(await stopChildProcess(child)).toEqual({ stoppedBy: 'not-running', exitCode: 3, signalCode: null });
    const unborn = fakeChild('stdin');
    Object.assign(unborn.child, { pid: undefined });
    expect((await stopChildProcess(unborn.child)).stoppedBy).toBe('not-running');
    expect([...steps, ...unborn.steps]).toEqual([]);
  });

  test('waitForExit: true on exit, false when the time runs out first', async () => {
    vi.useFakeTimers({ now: 0 });
    const { child } = fakeChild('never');
    const late = waitForExit(child, 500);
    await vi.advanceTimersByTimeAsync(500);
    expect(await late).toBe(false);
    const soon = waitForExit(child, 500);
    child.emit('exit', 0, null);
    expect(await soon).toBe(true);
    expect(child.listenerCount('exit')).toBe(0);
  });
});

describe('stopChildProcess with real processes', () => {
  test('a server that exits on stdin EOF stops at the first step', async () => {
    const child = spawn(process.execPath, ['-e', 'process.stdin.resume(); process.stdin.on("end", () => process.exit(0))']);
    onCleanup(() => void child.kill('SIGKILL'));
    await new Promise((resolve) => child.once('spawn', resolve));
    expect(await stopChildProcess(child)).toEqual({ stoppedBy: 'stdin-closed', exitCode: 0, signalCode: null });
  });

  test('processGroup: the whole group is signalled, and a grandchild does not outlive its parent', async () => {
    // A shell that ignores stdin, starts a long sleep in the background (sharing its stdout pipe), prints the
    // sleep's pid and waits. The pipe ends only once every process holding it has exited, the grandchild too.
    const child = spawn('sh', ['-c', 'sleep 300 & echo $!; wait'], { detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await when(child.stdout!, 'data', () => output.includes('\n'), 'the grandchild pid');
    const grandchild = Number(output.trim());
    onCleanup(() => {
      if (isAlive(grandchild)) process.kill(grandchild, 'SIGKILL');
    });
    const result = await stopChildProcess(child, { graceMs: 100, processGroup: true });
    expect(result).toEqual({ stoppedBy: 'SIGTERM', exitCode: null, signalCode: 'SIGTERM' });
    await when(child.stdout!, 'end', () => child.stdout!.readableEnded, 'every holder of the pipe, the grandchild too, to exit');
  });

  test('signalProcessGroup falls back to the process itself when it leads no group', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    onCleanup(() => void child.kill('SIGKILL'));
    await new Promise((resolve) => child.once('spawn', resolve));
    expect(signalProcessGroup(child, 'SIGTERM')).toBe(true);
    expect(await exitOf(child)).toEqual({ code: null, signal: 'SIGTERM' });
    expect(signalProcessGroup(child, 'SIGTERM')).toBe(false);
  });
});
