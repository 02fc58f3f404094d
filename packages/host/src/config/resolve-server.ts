/**
 * One server entry of a parsed file → a {@link ServerConfig}: fields checked (each problem names the file, the server
 * and the field), the transport decided, `${…}` references resolved, `envFile` read, filters and timeouts read.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import * as util from 'node:util';
import type { ConfigIssue } from './config-error.js';
import { substitute, SubstitutionError, type SubstitutionContext } from './substitute.js';
import type { ConfigFormat, NameFilter, OAuthSettings, ServerConfig, TransportKind } from './types.js';

/** Keys other hosts write in server entries that this host does not use; accepted without a warning. */
const FOREIGN_KEYS = new Set(['autoApprove', 'alwaysAllow', 'dev', 'gallery', 'version', 'icon', 'timeout', 'trust', '$schema']);
const KNOWN_KEYS = new Set([
  'type',
  'transport',
  'command',
  'args',
  'env',
  'envFile',
  'cwd',
  'url',
  'headers',
  'oauth',
  'disabled',
  'enabled',
  'title',
  'description',
  'connectTimeoutMs',
  'requestTimeoutMs',
  'tools',
  'prompts',
  'resources',
  'includeTools',
  'excludeTools',
]);

const TRANSPORT_NAMES: Record<string, TransportKind> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'streamable-http',
  streamable_http: 'streamable-http',
  streamableHttp: 'streamable-http',
  sse: 'sse',
};

/** What resolving one entry needs. */
export interface ResolveContext {
  readonly file: string;
  readonly format: ConfigFormat;
  readonly substitution: SubstitutionContext;
  readonly issues: ConfigIssue[];
  readonly warnings: string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the fields of one entry; collects issues instead of stopping at the first. */
class EntryReader {
  readonly secrets: string[] = [];
  #failed = false;

  constructor(
    readonly name: string,
    readonly entry: Record<string, unknown>,
    readonly context: ResolveContext,
  ) {}

  get failed(): boolean {
    return this.#failed;
  }

  issue(field: string | undefined, message: string): undefined {
    this.#failed = true;
    this.context.issues.push({ file: this.context.file, server: this.name, ...(field === undefined ? {} : { field }), message });
    return undefined;
  }

  async text(field: string, raw: unknown, secret = false): Promise<string | undefined> {
    if (typeof raw === 'number' || typeof raw === 'boolean') raw = String(raw);
    if (typeof raw !== 'string') return this.issue(field, 'must be a string');
    try {
      const resolved = await substitute(raw, this.context.substitution);
      this.secrets.push(...resolved.secrets);
      if (secret && resolved.value !== '') this.secrets.push(resolved.value);
      return resolved.value;
    } catch (error) {
      if (error instanceof SubstitutionError) return this.issue(field, error.message);
      throw error;
    }
  }

  async optionalText(key: string): Promise<string | undefined> {
    return this.entry[key] === undefined ? undefined : this.text(key, this.entry[key]);
  }

  async list(key: string): Promise<string[] | undefined> {
    const raw = this.entry[key];
    if (raw === undefined) return undefined;
    if (!Array.isArray(raw)) return this.issue(key, 'must be an array of strings');
    const out: string[] = [];
    for (const [index, item] of raw.entries()) {
      const value = await this.text(`${key}[${index}]`, item);
      if (value !== undefined) out.push(value);
    }
    return out;
  }

  async map(key: string, secret: boolean): Promise<Record<string, string> | undefined> {
    const raw = this.entry[key];
    if (raw === undefined) return undefined;
    if (!isObject(raw)) return this.issue(key, 'must be an object of strings');
    const out: Record<string, string> = {};
    for (const [name, item] of Object.entries(raw)) {
      // A variable or header explicitly null is left out (some hosts write null for "unset").
      if (item === null) continue;
      const value = await this.text(`${key}.${name}`, item, secret);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  timeout(key: string): number | undefined {
    const raw = this.entry[key];
    if (raw === undefined) return undefined;
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw <= 0) return this.issue(key, 'must be a positive integer (milliseconds)');
    return raw;
  }

  filter(key: string, allowKey?: string, denyKey?: string): NameFilter | undefined {
    const raw = this.entry[key];
    const names = (field: string, value: unknown): string[] | undefined => {
      if (value === undefined) return undefined;
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return this.issue(field, 'must be an array of names');
      return value as string[];
    };
    let allow: string[] | undefined;
    let deny: string[] | undefined;
    if (raw !== undefined) {
      if (!isObject(raw)) return this.issue(key, 'must be an object with "allow" and/or "deny" arrays');
      allow = names(`${key}.allow`, raw.allow);
      deny = names(`${key}.deny`, raw.deny);
    }
    if (allowKey) allow ??= names(allowKey, this.entry[allowKey]);
    if (denyKey) deny ??= names(denyKey, this.entry[denyKey]);
    if (allow === undefined && deny === undefined) return undefined;
    return { ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) };
  }
}

function transportOf(reader: EntryReader): TransportKind | undefined {
  const { entry, context } = reader;
  const declared = entry.type ?? entry.transport;
  const field = entry.type === undefined ? 'transport' : 'type';
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand && hasUrl) return reader.issue(undefined, 'has both "command" (stdio) and "url" (remote); keep one');
  if (declared !== undefined) {
    const kind = typeof declared === 'string' ? TRANSPORT_NAMES[declared] : undefined;
    if (kind === undefined)
      return reader.issue(field, 'must be "stdio", "http", "streamable-http" or "sse" (a transport this host speaks)');
    if (kind === 'stdio' && !hasCommand) return reader.issue('command', 'is required for a stdio server');
    if (kind !== 'stdio' && !hasUrl) return reader.issue('url', `is required for a ${kind} server`);
    return kind;
  }
  if (!hasCommand && !hasUrl) return reader.issue(undefined, 'needs "command" (a stdio server) or "url" (a remote server)');
  if (context.format === 'mcp-json')
    context.warnings.push(`${context.file}: server ${JSON.stringify(reader.name)} has no "type" (mcp.json requires one); inferred`);
  return hasCommand ? 'stdio' : 'http';
}

async function readOAuth(reader: EntryReader): Promise<OAuthSettings | undefined> {
  const raw = reader.entry.oauth;
  if (raw === undefined) return undefined;
  if (!isObject(raw)) return reader.issue('oauth', 'must be an object');
  const text = async (key: string, secret = false): Promise<string | undefined> =>
    raw[key] === undefined ? undefined : reader.text(`oauth.${key}`, raw[key], secret);
  const clientId = await text('clientId');
  const clientSecret = await text('clientSecret', true);
  const redirectUri = await text('redirectUri');
  let scopes: string[] | undefined;
  if (raw.scopes !== undefined) {
    if (!Array.isArray(raw.scopes) || raw.scopes.some((s) => typeof s !== 'string'))
      reader.issue('oauth.scopes', 'must be an array of strings');
    else scopes = raw.scopes as string[];
  }
  if (redirectUri !== undefined) {
    const url = URL.canParse(redirectUri) ? new URL(redirectUri) : undefined;
    if (url?.protocol !== 'http:' || !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
      reader.issue('oauth.redirectUri', 'must be a loopback http:// URL (http://127.0.0.1:<port>/<path>)');
  }
  const grant = raw.grant ?? (clientSecret === undefined ? 'authorization_code' : undefined);
  if (grant !== undefined && grant !== 'authorization_code' && grant !== 'client_credentials')
    reader.issue('oauth.grant', 'must be "authorization_code" or "client_credentials"');
  if (grant === 'client_credentials' && (clientId === undefined || clientSecret === undefined))
    reader.issue('oauth', 'the client_credentials grant needs "clientId" and "clientSecret"');
  return {
    ...(clientId === undefined ? {} : { clientId }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(scopes === undefined ? {} : { scopes }),
    ...(redirectUri === undefined ? {} : { redirectUri }),
    ...(grant === 'authorization_code' || grant === 'client_credentials' ? { grant } : {}),
  };
}

async function readEnvFile(reader: EntryReader, folder: string): Promise<Record<string, string> | undefined> {
  const path = await reader.optionalText('envFile');
  if (path === undefined) return undefined;
  try {
    // util.parseEnv (dotenv syntax) arrived in Node 20.12; looked up at run time so older 20.x still load this module.
    const parseEnv = (util as { parseEnv?: (text: string) => Record<string, string> }).parseEnv;
    if (parseEnv === undefined) return reader.issue('envFile', 'needs Node 20.12 or later (util.parseEnv)');
    const text = await readFile(isAbsolute(path) ? path : join(folder, path), 'utf8');
    const parsed = parseEnv(text);
    reader.secrets.push(...Object.values(parsed).filter((value) => value !== ''));
    return parsed;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return reader.issue('envFile', code === 'ENOENT' ? 'the file does not exist' : `cannot be read (${code ?? 'error'})`);
  }
}

/** Resolves one entry; `undefined` when it has problems (recorded in `context.issues`). */
export async function resolveServer(name: string, entry: unknown, context: ResolveContext): Promise<ServerConfig | undefined> {
  if (!isObject(entry)) {
    context.issues.push({ file: context.file, server: name, message: 'must be an object' });
    return undefined;
  }
  const reader = new EntryReader(name, entry, context);
  for (const key of Object.keys(entry)) {
    if (!KNOWN_KEYS.has(key) && !FOREIGN_KEYS.has(key))
      context.warnings.push(`${context.file}: server ${JSON.stringify(name)}: unknown key ${JSON.stringify(key)} ignored`);
  }
  const transport = transportOf(reader);
  const remote = transport !== undefined && transport !== 'stdio';
  if (remote)
    for (const key of ['command', 'args', 'env', 'envFile', 'cwd'])
      if (entry[key] !== undefined) reader.issue(key, 'applies to stdio servers only');
  if (transport === 'stdio')
    for (const key of ['headers', 'oauth']) if (entry[key] !== undefined) reader.issue(key, 'applies to remote servers only');
  const disabled = entry.disabled === true || entry.enabled === false;
  for (const key of ['disabled', 'enabled'])
    if (entry[key] !== undefined && typeof entry[key] !== 'boolean') reader.issue(key, 'must be true or false');

  const folder = context.substitution.workspaceFolder;
  const command = await reader.optionalText('command');
  const args = await reader.list('args');
  const fileEnv = await readEnvFile(reader, folder);
  const env = await reader.map('env', true);
  let cwd = await reader.optionalText('cwd');
  if (cwd !== undefined && !isAbsolute(cwd)) cwd = join(folder, cwd);
  const url = await reader.optionalText('url');
  if (url !== undefined && !/^https?:\/\//i.test(url)) reader.issue('url', 'must be an http:// or https:// URL');
  else if (url !== undefined && !URL.canParse(url)) reader.issue('url', 'is not a valid URL');
  const headers = await reader.map('headers', true);
  const oauth = await readOAuth(reader);
  if (oauth && headers && Object.keys(headers).some((h) => h.toLowerCase() === 'authorization'))
    context.warnings.push(
      `${context.file}: server ${JSON.stringify(name)} has both "oauth" and an Authorization header; the header is sent`,
    );
  const title = await reader.optionalText('title');
  const description = await reader.optionalText('description');
  const connectTimeoutMs = reader.timeout('connectTimeoutMs');
  const requestTimeoutMs = reader.timeout('requestTimeoutMs');
  const tools = reader.filter('tools', 'includeTools', 'excludeTools');
  const prompts = reader.filter('prompts');
  const resources = reader.filter('resources');
  if (reader.failed || transport === undefined) return undefined;
  const mergedEnv = fileEnv || env ? { ...fileEnv, ...env } : undefined;
  return {
    name,
    transport,
    disabled,
    source: { file: context.file, format: context.format },
    secrets: [...new Set(reader.secrets)],
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(command === undefined ? {} : { command }),
    ...(args === undefined ? {} : { args }),
    ...(mergedEnv === undefined ? {} : { env: mergedEnv }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(url === undefined ? {} : { url }),
    ...(headers === undefined ? {} : { headers }),
    ...(oauth === undefined ? {} : { oauth }),
    ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
    ...(tools === undefined ? {} : { tools }),
    ...(prompts === undefined ? {} : { prompts }),
    ...(resources === undefined ? {} : { resources }),
  };
}
