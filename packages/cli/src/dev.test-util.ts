/**
 * What the `wiremcp dev` process tests share: the source of a small server they write and edit, and waiting for
 * text on a stream or for a process to be gone.
 */
import { fileURLToPath } from 'node:url';

/** The CLI package: test servers are written under it so that their imports resolve from its node_modules. */
export const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

/** What the test server has besides its tool `pid` (its process id). */
export interface DevServerShape {
  /** More tools, each answering its own name. */
  readonly tools?: readonly string[];
  /** A syntax error, so that the build fails. */
  readonly broken?: boolean;
  /** The subscribable resource `test://note` and the tool `touch` that announces it changed. */
  readonly note?: boolean;
  /** The prompt `hello` (so the server declares prompts). */
  readonly prompt?: boolean;
}

/** The source of the test server (TypeScript, importing @wiremcp/server and @wiremcp/process). */
export function serverSource(shape: DevServerShape = {}): string {
  const tool = (name: string, text: string, extra = ''): string =>
    `  s.registerTool({ name: '${name}', inputSchema: { type: 'object' } } as const, () => {${extra} ` +
    `return { content: [{ type: 'text', text: ${text} }] }; });`;
  return [
    "import { McpServer } from '@wiremcp/server';",
    "import { runServerMain } from '@wiremcp/process';",
    'const build = (): McpServer => {',
    "  const s = new McpServer({ name: 'dev-test', version: '1.0.0' });",
    tool('pid', 'String(process.pid)'),
    ...(shape.tools ?? []).map((name) => tool(name, `'${name}'`)),
    ...(shape.note
      ? [
          "  s.registerResource({ uri: 'test://note', name: 'note' }, (uri) => ({ contents: [{ uri, text: 'note' }] }));",
          tool('touch', "'touched'", " s.notifyResourceUpdated('test://note');"),
        ]
      : []),
    shape.prompt ? "  s.registerPrompt({ name: 'hello' }, () => ({ messages: [] }));" : '',
    shape.broken ? '  const = ;' : '',
    '  return s;',
    '};',
    "await runServerMain({ name: 'dev-test', version: '1.0.0', usage: '', createServer: () => build() });",
    '',
  ].join('\n');
}

/** Resolves when `predicate` holds for the text `read` returns, checked on each `onData`; rejects after `ms`. */
export function waitFor(
  read: () => string,
  onData: (listener: () => void) => () => void,
  predicate: (text: string) => boolean,
  ms = 30_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let off = (): void => {};
    const timer = setTimeout(() => {
      off();
      reject(new Error(`not seen in time; stderr so far:\n${read()}`));
    }, ms);
    const check = (): void => {
      if (!predicate(read())) return;
      clearTimeout(timer);
      off();
      resolve();
    };
    off = onData(check);
    check();
  });
}

/** Whether process `pid` is gone, waiting for it (bounded). */
export async function gone(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 200; tries++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
