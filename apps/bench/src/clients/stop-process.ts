import type { ChildProcess } from 'node:child_process';

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.removeListener('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/** The stdio shutdown sequence: end stdin, wait, SIGTERM, wait, SIGKILL. Resolves once the process has exited. */
export async function stopProcess(child: ChildProcess, graceMs = 2000): Promise<void> {
  child.stdin?.end();
  if (await exited(child, graceMs)) return;
  child.kill('SIGTERM');
  if (await exited(child, graceMs)) return;
  child.kill('SIGKILL');
  await exited(child, graceMs);
}
