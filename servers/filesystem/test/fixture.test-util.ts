/**
 * Test fixtures of the filesystem server: a temporary tree with an allowed directory and things around it that must
 * stay unreachable, an in-process server (through `createFilesystemServer`, a linked transport pair) with our
 * McpClient in either era, and helpers to read results. Everything created is removed by `cleanup()`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpClient, type RootsHandler } from '@wiremcp/client';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { createFilesystemServer, type FilesystemServer } from '../src/filesystem-server.js';
import { defaultConfig, type ConfigOverrides } from '../src/config.js';

/** The two eras every tool is tested in. */
export const ERAS = ['legacy', 'modern'] as const;
export type Era = (typeof ERAS)[number];

/** A temporary tree: `root` (allowed), `outside` (a sibling holding a secret), `base` (their parent). */
export interface Tree {
  base: string;
  root: string;
  outside: string;
  secret: string;
  /** Absolute path below the allowed directory. */
  at(...parts: string[]): string;
  write(relative: string, content: string | Buffer): string;
  cleanup(): void;
}

/** The text of the secret file outside the allowed directory; no result may ever contain it. */
export const SECRET = 'TOP-SECRET-OUTSIDE-CONTENT';

/** Makes a fresh tree (real paths, so symlinked temp directories do not confuse assertions). */
export function makeTree(name = 'root'): Tree {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'wiremcp-fs-')));
  const root = join(base, name);
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  const secret = join(outside, 'secret.txt');
  writeFileSync(secret, `${SECRET}\n`);
  return {
    base,
    root,
    outside,
    secret,
    at: (...parts) => join(root, ...parts),
    write: (relative, content) => {
      const path = join(root, relative);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Options of {@link connect}. */
export interface ConnectOptions {
  config?: ConfigOverrides;
  directories?: string[];
  roots?: RootsHandler;
  /** Receives the server's log lines (stderr in the bin). */
  log?: (line: string) => void;
}

/** An in-process server and a connected client. */
export interface Connected {
  client: McpClient;
  filesystem: FilesystemServer;
  /** Calls a tool; resolves with the raw result. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/** Structured content as tests read it: loosely, with the schema checked by the client already. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one place for the tests' loose reads of results
export type Loose = Record<string, any>;

/** A tool result as the tests read it. */
export interface ToolResult {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string; resource?: Record<string, unknown> }>;
  structuredContent?: Loose;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

const open: Connected[] = [];

/** Starts a server on `tree.root` (or `directories`) and connects a client of `era`. */
export async function connect(tree: Tree, era: Era, options: ConnectOptions = {}): Promise<Connected> {
  const filesystem = await createFilesystemServer(defaultConfig(options.directories ?? [tree.root], options.config), {
    log: options.log ?? (() => {}),
    onInternalError: (error) => {
      throw error;
    },
  });
  const [clientEnd, serverEnd] = createLinkedPair();
  await filesystem.serve(serverEnd);
  const client = new McpClient({ name: 'fs-test', version: '1.0.0' }, { era, handlers: options.roots ? { roots: options.roots } : {} });
  await client.connect(clientEnd);
  const connected: Connected = {
    client,
    filesystem,
    call: async (name, args = {}) => (await client.callTool(name, args)) as unknown as ToolResult,
    close: async () => {
      await client.close().catch(() => {});
      await filesystem.close();
    },
  };
  open.push(connected);
  return connected;
}

/** Closes every connection opened since the last call (use in afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((connected) => connected.close()));
}

/** The first text block of a result. */
export function textOf(result: ToolResult): string {
  return result.content[0]?.text ?? '';
}

/** Every text of a result, blocks and structured content, for "never contains" checks. */
export function everything(result: ToolResult): string {
  return JSON.stringify(result);
}

/** The stable error code of an `isError` result. */
export function errorCode(result: ToolResult): unknown {
  return result.isError ? result._meta?.['dev.wiremcp/errorCode'] : undefined;
}
