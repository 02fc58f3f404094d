/**
 * A configuration file's text → its format, its server entries (still unresolved) and its input definitions. JSON
 * with comments and trailing commas is accepted in every format (VS Code writes it; a strict JSON file is a subset),
 * parsed by `jsonc-parser`, the parser VS Code itself reads these files with.
 */
import * as jsoncModule from 'jsonc-parser';
import { ConfigError, type ConfigIssue } from './config-error.js';
import type { ConfigFormat, InputDefinition } from './types.js';

// Node loads jsonc-parser's CommonJS build (its exports under `default`); bundlers pick its ES module build (named
// exports only). Either way, the same functions.
const jsonc: typeof jsoncModule = (jsoncModule as { default?: typeof jsoncModule }).default ?? jsoncModule;

/** A parsed file, before references are resolved. */
export interface ParsedConfig {
  readonly file: string;
  readonly format: ConfigFormat;
  /** Server name → its entry, in file order. */
  readonly entries: ReadonlyArray<readonly [string, unknown]>;
  readonly inputs: readonly InputDefinition[];
  readonly warnings: readonly string[];
}

/** Largest configuration file read, in bytes: a configuration is small; anything bigger is a mistake. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `${line}:${column}`;
}

/**
 * The format of a file: `servers` means VS Code; `mcpServers` means Claude Desktop when the file is
 * `claude_desktop_config.json`, Cursor when it sits in a `.cursor` folder, the common `mcp.json` otherwise.
 */
export function detectFormat(file: string, document: Record<string, unknown>): ConfigFormat | undefined {
  const normalized = file.replace(/\\/g, '/');
  if (isObject(document.servers) && !isObject(document.mcpServers)) return 'vscode';
  if (!isObject(document.mcpServers)) return undefined;
  if (/(^|\/)claude_desktop_config\.json$/i.test(normalized)) return 'claude-desktop';
  if (/(^|\/)\.cursor\/[^/]+$/.test(normalized)) return 'cursor';
  return 'mcp-json';
}

function readInputs(file: string, raw: unknown, issues: ConfigIssue[]): InputDefinition[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    issues.push({ file, field: 'inputs', message: 'must be an array of input definitions' });
    return [];
  }
  const inputs: InputDefinition[] = [];
  raw.forEach((entry: unknown, index) => {
    const field = `inputs[${index}]`;
    if (!isObject(entry) || typeof entry.id !== 'string' || entry.id === '') {
      issues.push({ file, field, message: 'needs an "id" string' });
      return;
    }
    const type = entry.type ?? 'promptString';
    if (type !== 'promptString' && type !== 'pickString') {
      issues.push({
        file,
        field: `${field}.type`,
        message: `input ${JSON.stringify(entry.id)}: type ${JSON.stringify(type)} is not supported (promptString, pickString)`,
      });
      return;
    }
    const options = Array.isArray(entry.options) ? entry.options.filter((o): o is string => typeof o === 'string') : undefined;
    inputs.push({
      id: entry.id,
      type,
      file,
      ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      ...(entry.password === true ? { password: true } : {}),
      ...(typeof entry.default === 'string' ? { default: entry.default } : {}),
      ...(options ? { options } : {}),
    });
  });
  return inputs;
}

/**
 * Parses a configuration file's text. `format` forces a format (otherwise detected); a file that is not JSON, has
 * no `mcpServers`/`servers` object, or whose format cannot be told throws a {@link ConfigError}.
 */
export function parseConfig(text: string, file: string, format?: ConfigFormat): ParsedConfig {
  const errors: jsoncModule.ParseError[] = [];
  const document: unknown = jsonc.parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    throw new ConfigError(
      errors.slice(0, 5).map((error) => ({
        file,
        position: position(text, error.offset),
        message: `not valid JSON: ${jsonc.printParseErrorCode(error.error)}`,
      })),
    );
  }
  if (!isObject(document)) throw new ConfigError([{ file, message: 'must be a JSON object' }]);
  const detected = format ?? detectFormat(file, document);
  if (detected === undefined)
    throw new ConfigError([{ file, message: 'has no "mcpServers" (Claude Desktop, Cursor, mcp.json) or "servers" (VS Code) object' }]);
  const key = detected === 'vscode' ? 'servers' : 'mcpServers';
  const servers = document[key];
  if (!isObject(servers)) throw new ConfigError([{ file, field: key, message: 'must be an object mapping server names to servers' }]);
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  const inputs = readInputs(file, document.inputs, issues);
  if (detected !== 'vscode' && document.inputs !== undefined) warnings.push(`${file}: "inputs" is a VS Code key; read anyway`);
  const entries: Array<readonly [string, unknown]> = [];
  for (const [name, entry] of Object.entries(servers)) {
    if (name.trim() === '' || name.length > 128 || /[\u0000-\u001f\u007f]/.test(name)) {
      issues.push({ file, field: key, message: `a server name must be 1 to 128 printable characters` });
      continue;
    }
    entries.push([name, entry]);
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return { file, format: detected, entries, inputs, warnings };
}
