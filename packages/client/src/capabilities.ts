/**
 * Capabilities: what the client declares (derived from its handlers, shaped by revision) and the checks of the
 * server's declared capabilities before a gated request is sent.
 */
import { eraOf, LocalError } from '@wiremcp/protocol';
import type { InputHandlers } from './options.js';
import type { ClientCapabilities, ServerCapabilities } from './protocol-types.js';

/**
 * The capabilities the client declares for `version`: one per handler given, in the shape that revision defines,
 * with the keys of `override` replacing derived ones. No handlers and no override give `{}`.
 *
 * - sampling → `sampling: {}`;
 * - elicitation → `{form: {}, url: {}}` from 2025-11-25 (URL mode exists there), `{}` in 2025-06-18, nothing before
 *   (the feature does not exist);
 * - roots → `{listChanged: true}` in legacy revisions (the client can notify changes), `{}` in 2026-07-28 (the
 *   notification was removed).
 */
export function clientCapabilitiesFor(
  handlers: InputHandlers | undefined,
  version: string,
  override: ClientCapabilities | undefined,
): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (handlers?.sampling) caps.sampling = {};
  if (handlers?.elicitation) {
    if (version >= '2025-11-25') caps.elicitation = { form: {}, url: {} };
    else if (version >= '2025-06-18') caps.elicitation = {};
  }
  if (handlers?.roots) caps.roots = eraOf(version) === 'modern' ? {} : { listChanged: true };
  if (override) {
    for (const key of Object.keys(override)) {
      const value = override[key];
      if (value === undefined) delete caps[key];
      else caps[key] = value;
    }
  }
  return caps;
}

/** The server capability (as a path) that gates each client request; absent methods are ungated. */
const GATES: Readonly<Record<string, readonly string[]>> = {
  'tools/list': ['tools'],
  'tools/call': ['tools'],
  'prompts/list': ['prompts'],
  'prompts/get': ['prompts'],
  'resources/list': ['resources'],
  'resources/templates/list': ['resources'],
  'resources/read': ['resources'],
  'resources/subscribe': ['resources', 'subscribe'],
  'resources/unsubscribe': ['resources', 'subscribe'],
  'logging/setLevel': ['logging'],
  'completion/complete': ['completions'],
};

/** True when `caps` declares the capability at `path` (present and not `false`/`null`). */
export function hasCapability(caps: ServerCapabilities | ClientCapabilities | undefined, path: readonly string[]): boolean {
  let node: unknown = caps;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== undefined && node !== null && node !== false;
}

/**
 * The `CAPABILITY_NOT_SUPPORTED` error for `method` when the server did not declare its gate, else `undefined`.
 * `completion/complete` is ungated in 2024-11-05 (the `completions` capability appeared in 2025-03-26).
 */
export function missingServerCapability(
  method: string,
  caps: ServerCapabilities | undefined,
  version: string,
): LocalError | undefined {
  const gate = GATES[method];
  if (!gate || hasCapability(caps, gate)) return undefined;
  if (method === 'completion/complete' && version === '2024-11-05') return undefined;
  return new LocalError(
    'CAPABILITY_NOT_SUPPORTED',
    `The server does not declare the '${gate.join('.')}' capability needed by '${method}'`,
    { details: { method, capability: gate.join('.') } },
  );
}
