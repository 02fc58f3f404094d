/**
 * A target is a server under test: one from the registry (servers.yaml), or a third-party one given with
 * `--command` (stdio) or `--url` (HTTP).
 */
import type { TransportId } from '../scenario/scenario-types.js';

/** How to reach a target over one transport. */
export type TargetTransport =
  | {
      readonly id: TransportId;
      readonly kind: 'stdio';
      readonly command: readonly string[];
      readonly cwd: string;
      readonly env: Readonly<Record<string, string>>;
    }
  | {
      readonly id: TransportId;
      /** A network endpoint the app reaches by URL: HTTP, or WebSocket (`ws://…`, one connection per session). */
      readonly kind: 'http';
      /** The URL, with `{{port}}` when the app starts the server. */
      readonly url: string;
      /** The server to start per cell (registry HTTP servers); absent for `--url`. */
      readonly start?: { readonly command: readonly string[]; readonly cwd: string; readonly env: Readonly<Record<string, string>> };
      /** The revisions this transport carries (registry `revisions` of the transport); absent: every revision. */
      readonly revisions?: readonly string[];
      /**
       * Revisions this endpoint does not carry although the server may speak them elsewhere (a `--url` Streamable
       * HTTP endpoint and 2024-11-05, whose wire is HTTP+SSE): their cells are "not applicable" with this reason.
       */
      readonly elsewhere?: { readonly revisions: readonly string[]; readonly reason: string };
    };

/** A server under test. */
export interface Target {
  readonly id: string;
  readonly title: string;
  /** Where it came from: registry servers declare capabilities; external ones are probed. */
  readonly origin: 'registry' | 'external';
  readonly transports: readonly TargetTransport[];
  /** Revisions it claims to speak (external targets: all; the probe finds out). */
  readonly revisions: readonly string[];
  /** Declared capabilities as dotted paths; undefined means "probe the server". */
  readonly capabilities: ReadonlySet<string> | undefined;
  readonly features: ReadonlySet<string>;
  readonly limits: Readonly<Record<string, number>>;
  /** Why nothing can run (a bin that is not built yet…); every cell is skipped with this reason. */
  readonly unavailable?: string;
  /** External targets named with `--name <registry id>`: that registry server, whose baseline entries and features apply. */
  readonly knownAs?: string;
  /**
   * External targets not named so: the registry server whose name (and version) it reports. Only suggested
   * (`--name <id>`): a baseline applies when the user names it, never by recognition.
   */
  readonly resembles?: string;
  /** Registry servers: the `serverInfo` they report; an external target reporting it gets `--name <id>` suggested. */
  readonly serverInfo?: { readonly name: string; readonly version?: string };
}

/** True when `transport` carries `revision` (an HTTP transport may carry only some). */
export function carries(transport: TargetTransport, revision: string): boolean {
  return transport.kind !== 'http' || transport.revisions === undefined || transport.revisions.includes(revision);
}

/**
 * The dotted paths of a capabilities object: `{tools: {listChanged: true}, logging: {}}` gives `tools`,
 * `tools.listChanged`, `logging`. A path exists when its value is an object or `true`.
 */
export function capabilityPaths(capabilities: unknown, prefix = ''): Set<string> {
  const out = new Set<string>();
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) return out;
  for (const [key, value] of Object.entries(capabilities)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (value === true || (typeof value === 'object' && value !== null)) {
      out.add(path);
      for (const inner of capabilityPaths(value, path)) out.add(inner);
    }
  }
  return out;
}
