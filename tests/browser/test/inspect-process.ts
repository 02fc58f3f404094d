/**
 * `wiremcp inspect` as a user starts it: the built bin in a child process, its page URL read from stdout, stopped
 * with SIGTERM (its exit code kept, so that a test can check it stopped cleanly).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built `wiremcp` bin. */
export const WIREMCP_BIN = fileURLToPath(new URL('../../../packages/cli/bin/wiremcp.js', import.meta.url));

/** A running inspector. */
export interface InspectProcess {
  /** The page URL, with the token. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly child: ChildProcess;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** Stops it (SIGTERM, SIGKILL after 5 s); resolves with its exit code (`null` when killed). */
  stop(): Promise<number | null>;
}

/** Starts `wiremcp [rootArgs] inspect <args>`; resolves once it printed its URL (rejects if it exits first). */
export function startInspect(args: readonly string[], rootArgs: readonly string[] = []): Promise<InspectProcess> {
  const child = spawn(process.execPath, [WIREMCP_BIN, ...rootArgs, 'inspect', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    }
    return child.exitCode;
  };
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]+)/.exec(stdout);
      if (match) resolve({ url: match[0], origin: match[1]!, token: match[2]!, child, stderr: () => stderr, stop });
    });
    void exited.then((code) => reject(new Error(`wiremcp inspect exited with ${String(code)} before serving:\n${stdout}${stderr}`)));
  });
}
