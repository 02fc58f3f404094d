// `--node 20,24` of the HTTP bench: which Node versions to run every row on, where their binaries are, and the rows
// multiplied by version (each row's ratios against the baseline of the same Node version).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { HttpRow } from './http-plan.js';

/** A Node binary the rows can run on. */
export interface NodeBinary {
  major: number;
  version: string;
  execPath: string;
}

/** Parses `--node`'s list of major versions (`20,24`); throws a readable error for anything else. */
export function parseNodeList(text: string): number[] {
  const majors: number[] = [];
  for (const part of text.split(',').map((s) => s.trim())) {
    if (!/^\d{2}$/.test(part) || Number(part) < 18)
      throw new Error(`--node takes major versions such as 20,24; got ${JSON.stringify(part.slice(0, 20))}`);
    if (majors.includes(Number(part))) throw new Error(`--node names ${part} twice`);
    majors.push(Number(part));
  }
  return majors;
}

/** The version a binary reports (`v24.1.0` → `24.1.0`), or undefined when it cannot be run. */
function versionOf(execPath: string): string | undefined {
  try {
    return execFileSync(execPath, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .replace(/^v/, '');
  } catch {
    return undefined;
  }
}

/**
 * The binary of Node `major`: this process's when it is that version; else the one recorded in `cacheFile` if it
 * still runs and is that version; else fetched once from the npm registry (`npx -y -p node@<major>`, the `node`
 * package) and recorded. Throws a readable error when none can be had.
 */
export function resolveNode(major: number, cacheFile: string): NodeBinary {
  if (Number(process.versions.node.split('.')[0]) === major) return { major, version: process.versions.node, execPath: process.execPath };
  let cache: Record<string, string> = {};
  try {
    cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, string>;
  } catch {
    // No cache yet (or an unreadable one): fetched below.
  }
  const cached = cache[String(major)];
  if (typeof cached === 'string' && existsSync(cached)) {
    const version = versionOf(cached);
    if (version?.startsWith(`${major}.`)) return { major, version, execPath: cached };
  }
  let execPath: string;
  try {
    execPath = execFileSync('npx', ['-y', '-p', `node@${major}`, 'node', '-p', 'process.execPath'], {
      encoding: 'utf8',
      timeout: 300_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').slice(-300);
    throw new Error(`could not get Node ${major} with npx -y -p node@${major}: ${stderr || (error as Error).message}`);
  }
  const version = versionOf(execPath);
  if (!version?.startsWith(`${major}.`)) throw new Error(`npx -y -p node@${major} gave ${execPath}, which is not Node ${major}`);
  cache[String(major)] = execPath;
  mkdirSync(dirname(cacheFile), { recursive: true });
  writeFileSync(cacheFile, `${JSON.stringify(cache, null, 1)}\n`);
  return { major, version, execPath };
}

/**
 * Every row once per Node binary, the versions of a row next to each other (so a repetition runs them minutes
 * apart at most): ids and references get `:node<major>`, so each row is compared with the baseline of its own
 * Node version, and labels name the version.
 */
export function withNodeRows(rows: readonly HttpRow[], nodes: readonly NodeBinary[]): HttpRow[] {
  return rows.flatMap((row) =>
    nodes.map((node) => ({
      ...row,
      id: `${row.id}:node${node.major}`,
      reference: `${row.reference}:node${node.major}`,
      label: `${row.label} · Node ${node.major}`,
      node: { major: node.major, execPath: node.execPath },
    })),
  );
}
