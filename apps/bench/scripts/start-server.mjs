// Starting an HTTP bench server for the side-by-side scripts (http-block-ab.mjs, http-latency-ab.mjs): a bench server
// script prints `READY <port>` and serves /mcp; it runs on this process's Node, pinned with taskset when `pin` names
// a CPU.
import { spawn } from 'node:child_process';

/**
 * Starts `script` (`node [...nodeArgs] script [...args]`) and resolves with the child and its port once it is READY;
 * rejects if it exits first.
 */
export function startServer(script, { pin, nodeArgs = [], args = [], env = {} } = {}) {
  const argv = [...nodeArgs, script, ...args];
  const options = { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } };
  const child = pin ? spawn('taskset', ['-c', pin, process.execPath, ...argv], options) : spawn(process.execPath, argv, options);
  return new Promise((resolve, reject) => {
    let out = '';
    const early = (code) => reject(new Error(`${script} exited with ${code} before READY`));
    child.once('exit', early);
    child.stdout.on('data', (data) => {
      out += data;
      const ready = /READY (\d+)/.exec(out);
      if (ready) {
        child.off('exit', early);
        resolve({ child, port: Number(ready[1]) });
      }
    });
  });
}
