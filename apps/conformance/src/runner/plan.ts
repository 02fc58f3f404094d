/**
 * The matrix: which cells exist for a set of scenarios and targets, and which of them are skipped and why.
 *
 * A cell exists when the scenario applies to the server (any, its id, or requirements), the transport is one both
 * support, and the revision is one both support (for registry servers; an external server's revisions are found
 * by probing). It does not apply ("not applicable", with the reason) when the server lacks a required capability
 * or feature or did not accept the revision when probed; it is skipped when the server is not built, and in error
 * when the server could not be started or reached.
 */
import type { ProtocolVersion } from '@wiremcp/protocol';
import { isHttpTransport, isStdioTransport, type Scenario, type TransportId } from '../scenario/scenario-types.js';
import type { Target } from '../targets/target.js';
import type { Cell } from './cell-types.js';

/** What the CLI narrows the matrix to (empty lists mean no restriction). */
export interface MatrixFilter {
  readonly servers?: readonly string[];
  readonly transports?: readonly TransportId[];
  readonly revisions?: readonly string[];
  /** Globs (`*`) matched against the scenario id and `area/id`. */
  readonly scenarios?: readonly string[];
}

/** What probing an external server found for one transport and revision. */
export interface ProbeResult {
  /** Undefined when the server speaks the revision; otherwise why the cells are skipped. */
  readonly unsupported?: string;
  readonly capabilities: ReadonlySet<string>;
  /** Features derived from the probes (`dual-era` when both eras answered). */
  readonly features: ReadonlySet<string>;
}

/** Probe results by target id, then `transport|revision`. */
export type ProbeResults = ReadonlyMap<string, ReadonlyMap<string, ProbeResult>>;

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** True when the scenario is selected by the globs (or there are none). */
export function scenarioSelected(scenario: Scenario, globs: readonly string[] | undefined): boolean {
  if (!globs || globs.length === 0) return true;
  return globs.some((glob) => {
    const regex = globToRegExp(glob);
    return regex.test(scenario.id) || regex.test(`${scenario.area}/${scenario.id}`) || regex.test(scenario.area);
  });
}

function requirementGap(scenario: Scenario, capabilities: ReadonlySet<string>, features: ReadonlySet<string>): string | undefined {
  if (scenario.servers.kind !== 'requires') return undefined;
  const missingCaps = scenario.servers.capabilities.filter((capability) => !capabilities.has(capability));
  if (missingCaps.length > 0)
    return `the server does not declare the capabilit${missingCaps.length === 1 ? 'y' : 'ies'} ${missingCaps.join(', ')}`;
  const missingFeatures = scenario.servers.features.filter((feature) => !features.has(feature));
  if (missingFeatures.length > 0)
    return `the server does not declare the feature${missingFeatures.length === 1 ? '' : 's'} ${missingFeatures.join(', ')}`;
  return undefined;
}

/** Why a target, or one of its transports, cannot be started or reached (from the warm-up), by target id then transport id or `*`. */
export type TargetErrors = ReadonlyMap<string, ReadonlyMap<string, string>>;

/**
 * Why a scenario written for other transports does not apply over WebSocket, or undefined when it does (or the
 * transport is not WebSocket: cells of other transports a scenario does not name are left out of the matrix, as
 * before). WebSocket cells of such scenarios are counted "not applicable", so that its row says what it leaves out.
 */
export function offWireReason(scenario: Scenario, transport: TransportId): string | undefined {
  if (transport !== 'websocket' || scenario.transports.includes(transport)) return undefined;
  const named = scenario.transports.join(', ');
  if (scenario.transports.every(isStdioTransport))
    return `checks stdio itself (${named}): its byte-stream framing or the process's lifecycle; a WebSocket text frame carries one message`;
  if (scenario.transports.every(isHttpTransport))
    return `checks HTTP itself (${named}): status codes, headers, sessions or streams, which WebSocket does not have`;
  return `written for ${named} only (its description says why WebSocket is left out)`;
}

/** Builds the cells of the matrix, in scenario × server × transport × revision order. */
export function planMatrix(
  scenarios: readonly Scenario[],
  targets: readonly Target[],
  filter: MatrixFilter,
  probes: ProbeResults = new Map(),
  targetErrors: TargetErrors = new Map(),
): Cell[] {
  const cells: Cell[] = [];
  for (const scenario of scenarios) {
    if (!scenarioSelected(scenario, filter.scenarios)) continue;
    for (const target of targets) {
      if (filter.servers?.length && !filter.servers.includes(target.id)) continue;
      // A server-specific scenario applies to that server however it is started (an external target named as it with --name).
      const ids = scenario.servers.kind === 'ids' ? scenario.servers.ids : undefined;
      if (ids && !ids.includes(target.id) && !(target.knownAs !== undefined && ids.includes(target.knownAs))) continue;
      for (const transport of target.transports) {
        const offWire = offWireReason(scenario, transport.id);
        if (!scenario.transports.includes(transport.id) && offWire === undefined) continue;
        if (filter.transports?.length && !filter.transports.includes(transport.id)) continue;
        for (const revision of scenario.revisions) {
          if (!target.revisions.includes(revision)) continue;
          const elsewhere =
            transport.kind === 'http' && transport.elsewhere?.revisions.includes(revision) ? transport.elsewhere.reason : undefined;
          if (
            elsewhere === undefined &&
            transport.kind === 'http' &&
            transport.revisions !== undefined &&
            !transport.revisions.includes(revision)
          )
            continue;
          if (filter.revisions?.length && !filter.revisions.includes(revision)) continue;
          const probe = probes.get(target.id)?.get(`${transport.id}|${revision}`);
          const capabilities = target.capabilities ?? probe?.capabilities ?? new Set<string>();
          const features = new Set([...target.features, ...(probe?.features ?? [])]);
          const errors = targetErrors.get(target.id);
          const error = errors?.get('*') ?? errors?.get(transport.id);
          const skip =
            target.unavailable ??
            (error === undefined && elsewhere === undefined && target.capabilities === undefined && probe === undefined
              ? 'the server was not probed for this revision'
              : undefined);
          const notApplicable = offWire ?? elsewhere ?? probe?.unsupported ?? requirementGap(scenario, capabilities, features);
          cells.push({
            scenario,
            target,
            transport,
            revision: revision as ProtocolVersion,
            capabilities,
            features,
            ...(error === undefined || target.unavailable !== undefined || elsewhere !== undefined ? {} : { error }),
            ...(skip === undefined ? {} : { skip }),
            ...(notApplicable === undefined ? {} : { notApplicable }),
          });
        }
      }
    }
  }
  return cells;
}
