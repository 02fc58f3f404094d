/**
 * Capabilities: what the client declares (derived from its handlers, shaped by revision) and the checks of the
 * server's declared capabilities before a gated request is sent.
 */
import {
  eraOf,
  hasCapability,
  isProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LocalError,
  methodExistsIn,
  serverCapabilityPath,
} from '@wiremcp/protocol';
import type { ElicitationOptions, InputHandlers } from './options.js';
import type { ClientCapabilities, ServerCapabilities } from './types.js';

/**
 * The capabilities the client declares for `version`: one per handler given, in the shape that revision defines,
 * with the keys of `override` replacing derived ones. No handlers and no override give `{}`.
 *
 * - sampling → `sampling: {}`;
 * - elicitation → `{form: {}}` from 2025-11-25 (modes exist there; `url: {}` too when `elicitation.url` opts in),
 *   `{}` in 2025-06-18, nothing before (the feature does not exist);
 * - roots → `{listChanged: true}` in legacy revisions (the client can notify changes), `{}` in 2026-07-28 (the
 *   notification was removed).
 */
export function clientCapabilitiesFor(
  handlers: InputHandlers | undefined,
  version: string,
  override: ClientCapabilities | undefined,
  elicitation?: ElicitationOptions,
): ClientCapabilities {
  // Built as a plain record: which keys exist depends on the revision, and the override may add any.
  const caps: Record<string, unknown> = {};
  if (handlers?.sampling) caps.sampling = {};
  if (handlers?.elicitation) {
    if (version >= '2025-11-25') caps.elicitation = elicitation?.url === true ? { form: {}, url: {} } : { form: {} };
    else if (version >= '2025-06-18') caps.elicitation = {};
  }
  if (handlers?.roots) caps.roots = eraOf(version) === 'modern' ? {} : { listChanged: true };
  if (override) {
    for (const [key, value] of Object.entries(override)) {
      if (value === undefined) delete caps[key];
      else caps[key] = value;
    }
  }
  return caps as ClientCapabilities;
}

/**
 * The `CAPABILITY_NOT_SUPPORTED` error for `method` when the server did not declare its gate, else `undefined`.
 * Gates come from the method table of `@wiremcp/protocol` for the negotiated revision (so `completion/complete`
 * is ungated in 2024-11-05, where the `completions` capability did not exist yet).
 */
export function missingServerCapability(method: string, caps: ServerCapabilities | undefined, version: string): LocalError | undefined {
  // A legacy-only method the client maps onto a modern mechanism (resources/subscribe → a listen stream) keeps
  // the gate it had in the newest legacy revision.
  const gate = isProtocolVersion(version)
    ? (serverCapabilityPath(method, version) ??
      (methodExistsIn(method, version) ? undefined : serverCapabilityPath(method, LATEST_LEGACY_PROTOCOL_VERSION)))
    : undefined;
  if (!gate || hasCapability(caps, gate)) return undefined;
  return new LocalError(
    'CAPABILITY_NOT_SUPPORTED',
    `The server does not declare the '${gate.join('.')}' capability needed by '${method}'`,
    { details: { method, capability: gate.join('.') } },
  );
}
