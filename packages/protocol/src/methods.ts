/**
 * The method table: every JSON-RPC method and notification of every MCP revision, who sends it, what gates it,
 * and which schema definitions describe it.
 *
 * Which methods exist in which revision, their directions and definitions are generated from the schemas
 * (src/generated/method-table.ts); only the capability gates come from the spec prose and live here.
 */
import { SPEC_METHODS } from './generated/method-table.js';
import {
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
  eraOf,
  type Era,
  type ProtocolVersion,
} from './versions.js';

/** `request` expects a response; `notification` does not. */
export type MethodKind = 'request' | 'notification';

/** Who sends the message. `both`: either side may (ping, cancellation, progress, tasks). */
export type MethodDirection = 'client-to-server' | 'server-to-client' | 'both';

/**
 * A capability that must have been declared before the message may be sent, as `<side>:<path>`: `server:tools`,
 * `server:resources.subscribe`, `client:elicitation`. `receiver:` names a capability of whichever side receives the
 * request (the tasks methods of 2025-11-25 go both ways and are gated by the receiver's `tasks` capability).
 */
export type CapabilityGate = `server:${string}` | `client:${string}` | `receiver:${string}`;

/** What the schema of one revision says about a method (generated; absent flags are false). */
export interface SpecMethodRevision {
  /** Who sends it in this revision. */
  readonly direction: MethodDirection;
  /** The request or notification definition (`CallToolRequest`, `CancelledNotification`). */
  readonly definition: string;
  /** Whether the message must carry `params` (always for 2026 requests: `_meta` is required). Absent: false. */
  readonly paramsRequired?: boolean;
  /** The params definition when the schema names one (`CallToolRequestParams`); older revisions inline params. */
  readonly paramsDefinition?: string;
  /** Requests only: the result definition (`CallToolResult`; `EmptyResult` for ping, subscribe, setLevel). */
  readonly resultDefinition?: string;
  /** Requests only: the result carries `nextCursor`. */
  readonly paginated?: boolean;
  /** Requests only: the result is a 2026 `CacheableResult` (`ttlMs`, `cacheScope`). */
  readonly cacheable?: boolean;
  /** Requests only: the request may be answered with a 2026 `InputRequiredResult` (MRTR). */
  readonly inputRequired?: boolean;
  /** Requests only: params may carry `task` (2025-11-25), and the answer is then a `CreateTaskResult`. */
  readonly taskAugmentable?: boolean;
}

/** The generated facts of one method over all revisions. */
export interface SpecMethodEntry {
  readonly kind: MethodKind;
  /** One entry per revision in which the method is a JSON-RPC message. */
  readonly byRevision: Readonly<Partial<Record<ProtocolVersion, SpecMethodRevision>>>;
  /** Revisions in which the method survives only inside `InputRequiredResult.inputRequests` (2026 MRTR). */
  readonly inputRequestRevisions: readonly ProtocolVersion[];
}

/** The generated table, by method name. */
export type SpecMethodTable = Readonly<Record<string, SpecMethodEntry>>;

/** A method in one revision: the schema facts plus the capability gate of that revision. */
export interface MethodRevisionInfo extends SpecMethodRevision {
  /** The gating capability in this revision; absent when the method is ungated. */
  readonly capability?: CapabilityGate;
}

/** Everything wiremcp knows about a method. Top-level fields describe the newest revision that has it. */
export interface MethodInfo {
  readonly method: string;
  readonly kind: MethodKind;
  /** Who may send it in some revision (`both` if the sides differ between revisions, as for progress). */
  readonly direction: MethodDirection;
  /** The gating capability in the newest revision that has the method; see `byRevision` for older ones. */
  readonly capability?: CapabilityGate;
  /** Revisions in which it is a JSON-RPC message, oldest first. */
  readonly revisions: readonly ProtocolVersion[];
  /** Eras of those revisions. */
  readonly eras: readonly Era[];
  /** Request or notification definition in the newest revision that has it. */
  readonly requestDefinition: string;
  readonly paramsDefinition?: string;
  readonly resultDefinition?: string;
  readonly paginated: boolean;
  readonly cacheable: boolean;
  readonly inputRequired: boolean;
  /** Task-augmentable in some revision (2025-11-25: tools/call, sampling/createMessage, elicitation/create). */
  readonly taskAugmentable: boolean;
  /** Revisions in which it travels only inside `InputRequiredResult.inputRequests` (2026 MRTR). */
  readonly inputRequestRevisions: readonly ProtocolVersion[];
  /** Per-revision details, including per-revision capability gates. */
  readonly byRevision: Readonly<Partial<Record<ProtocolVersion, MethodRevisionInfo>>>;
}

type GateRule = CapabilityGate | null | ((revision: ProtocolVersion) => CapabilityGate | null);

// From the spec prose (each revision's server/*.mdx, client/*.mdx, lifecycle.mdx and utilities); summarised in
// notes/spec-features.md §1. `null`: ungated. A test checks that every method of the table has an entry here.
const GATES: Readonly<Record<string, GateRule>> = {
  initialize: null,
  ping: null,
  'server/discover': null,
  // Each filter of the listen request is gated separately (tools/prompts/resources.listChanged,
  // resources.subscribe); the request itself is not.
  'subscriptions/listen': null,
  'tools/list': 'server:tools',
  'tools/call': 'server:tools',
  'prompts/list': 'server:prompts',
  'prompts/get': 'server:prompts',
  'resources/list': 'server:resources',
  'resources/templates/list': 'server:resources',
  'resources/read': 'server:resources',
  'resources/subscribe': 'server:resources.subscribe',
  'resources/unsubscribe': 'server:resources.subscribe',
  // Ungated in 2024-11-05; the `completions` capability appeared in 2025-03-26.
  'completion/complete': (revision) => (revision === '2024-11-05' ? null : 'server:completions'),
  'logging/setLevel': 'server:logging',
  'sampling/createMessage': 'client:sampling',
  'roots/list': 'client:roots',
  'elicitation/create': 'client:elicitation',
  'tasks/get': 'receiver:tasks',
  'tasks/result': 'receiver:tasks',
  'tasks/list': 'receiver:tasks.list',
  'tasks/cancel': 'receiver:tasks.cancel',
  'notifications/initialized': null,
  'notifications/cancelled': null,
  // Only for requests that carried `_meta.progressToken`; no capability.
  'notifications/progress': null,
  'notifications/message': 'server:logging',
  'notifications/resources/updated': 'server:resources.subscribe',
  'notifications/resources/list_changed': 'server:resources.listChanged',
  'notifications/tools/list_changed': 'server:tools.listChanged',
  'notifications/prompts/list_changed': 'server:prompts.listChanged',
  'notifications/roots/list_changed': 'client:roots.listChanged',
  'notifications/elicitation/complete': 'client:elicitation.url',
  // Optional, and only about tasks created by task-augmented requests, which are gated themselves.
  'notifications/tasks/status': null,
  // The reply that opens a listen stream; gated by the filters the server acknowledges.
  'notifications/subscriptions/acknowledged': null,
};

function gateOf(method: string, revision: ProtocolVersion): CapabilityGate | null {
  const rule = GATES[method];
  if (rule === undefined) throw new Error(`No capability gate recorded for ${method}`);
  return typeof rule === 'function' ? rule(revision) : rule;
}

function buildInfo(method: string, entry: SpecMethodEntry): MethodInfo {
  const revisions = PROTOCOL_VERSIONS.filter((revision) => entry.byRevision[revision] !== undefined);
  const byRevision: Partial<Record<ProtocolVersion, MethodRevisionInfo>> = {};
  const directions = new Set<MethodDirection>();
  for (const revision of revisions) {
    const spec = entry.byRevision[revision]!;
    const gate = gateOf(method, revision);
    byRevision[revision] = Object.freeze(gate === null ? { ...spec } : { ...spec, capability: gate });
    directions.add(spec.direction);
  }
  const newest = byRevision[revisions[revisions.length - 1]!]!;
  const direction: MethodDirection = directions.size === 1 ? [...directions][0]! : 'both';
  return Object.freeze({
    method,
    kind: entry.kind,
    direction,
    ...(newest.capability !== undefined && { capability: newest.capability }),
    revisions: Object.freeze(revisions),
    eras: Object.freeze([...new Set(revisions.map(eraOf))]),
    requestDefinition: newest.definition,
    ...(newest.paramsDefinition !== undefined && { paramsDefinition: newest.paramsDefinition }),
    ...(newest.resultDefinition !== undefined && { resultDefinition: newest.resultDefinition }),
    paginated: newest.paginated === true,
    cacheable: newest.cacheable === true,
    inputRequired: newest.inputRequired === true,
    taskAugmentable: revisions.some((revision) => byRevision[revision]?.taskAugmentable === true),
    inputRequestRevisions: entry.inputRequestRevisions,
    byRevision: Object.freeze(byRevision),
  });
}

/** Every method and notification of every revision, by method name (frozen). */
export const METHODS: Readonly<Record<string, MethodInfo>> = Object.freeze(
  Object.fromEntries(Object.entries(SPEC_METHODS).map(([method, entry]) => [method, buildInfo(method, entry)])),
);

/** The table entry of `method`, or `undefined` for a method no revision defines. */
export function getMethodInfo(method: string): MethodInfo | undefined {
  return Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
}

/** True when `method` is a JSON-RPC request or notification of `revision` (MRTR input requests do not count). */
export function methodExistsIn(method: string, revision: ProtocolVersion): boolean {
  return getMethodInfo(method)?.byRevision[revision] !== undefined;
}

/** The per-revision details of `method`, or `undefined` when it does not exist in `revision`. */
export function getMethodRevisionInfo(method: string, revision: ProtocolVersion): MethodRevisionInfo | undefined {
  return getMethodInfo(method)?.byRevision[revision];
}

/** The capability gating `method` in `revision`; `undefined` when ungated or absent from that revision. */
export function capabilityFor(method: string, revision: ProtocolVersion): CapabilityGate | undefined {
  return getMethodRevisionInfo(method, revision)?.capability;
}

/** Every method of `revision`, optionally only one kind, in table order. */
export function methodsIn(revision: ProtocolVersion, kind?: MethodKind): MethodInfo[] {
  return Object.values(METHODS).filter((info) => info.byRevision[revision] !== undefined && (kind === undefined || info.kind === kind));
}

/** True when `side` may send `method` in `revision` (false when the method does not exist there). */
export function canSend(method: string, revision: ProtocolVersion, side: 'client' | 'server'): boolean {
  const direction = getMethodRevisionInfo(method, revision)?.direction;
  if (direction === undefined) return false;
  return direction === 'both' || direction === (side === 'client' ? 'client-to-server' : 'server-to-client');
}

/** Per revision: the server gate path of every method of the table (`null`: ungated there). Built on first use. */
const serverGatePaths = new Map<ProtocolVersion, ReadonlyMap<string, readonly string[] | null>>();

const NO_GATES: ReadonlyMap<string, readonly string[] | null> = new Map();

function serverGatesOf(revision: ProtocolVersion): ReadonlyMap<string, readonly string[] | null> {
  if (!PROTOCOL_VERSIONS.includes(revision)) return NO_GATES;
  const paths = new Map<string, readonly string[] | null>();
  for (const info of Object.values(METHODS)) {
    const gate = info.byRevision[revision]?.capability;
    paths.set(
      info.method,
      gate !== undefined && gate.startsWith('server:') ? Object.freeze(gate.slice('server:'.length).split('.')) : null,
    );
  }
  serverGatePaths.set(revision, paths);
  return paths;
}

/**
 * The server capability that gates `method` in `revision`, as a property path into `ServerCapabilities`
 * (`['resources', 'subscribe']`); `undefined` when no server capability gates it there (ungated, client-gated,
 * absent from the revision, or a method no revision defines). Cheap enough for every request: two map lookups,
 * no string built per call, and nothing remembered about method names outside the table (a peer sending
 * made-up names cannot grow it).
 */
export function serverCapabilityPath(method: string, revision: ProtocolVersion): readonly string[] | undefined {
  return (serverGatePaths.get(revision) ?? serverGatesOf(revision)).get(method) ?? undefined;
}

/** True when `capabilities` declares the capability at `path` (present, and neither `false` nor `null`). */
export function hasCapability(capabilities: unknown, path: readonly string[]): boolean {
  let node = capabilities;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== undefined && node !== null && node !== false;
}

function methodSet(keep: (info: MethodInfo) => boolean): ReadonlySet<string> {
  return new Set(
    Object.values(METHODS)
      .filter(keep)
      .map((info) => info.method),
  );
}

const sentByClientIn = (info: MethodInfo, revision: ProtocolVersion): boolean => {
  const direction = info.byRevision[revision]?.direction;
  return direction === 'client-to-server' || direction === 'both';
};

/**
 * Requests whose 2026-07-28 answer may be an `InputRequiredResult` (MRTR): `tools/call`, `prompts/get`,
 * `resources/read`. Read from the method table, so a revision that adds one is picked up by regenerating it.
 */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = methodSet((info) => info.kind === 'request' && info.inputRequired);

/** Requests whose complete 2026-07-28 result is a `CacheableResult` (`ttlMs`, `cacheScope`). */
export const CACHEABLE_METHODS: ReadonlySet<string> = methodSet((info) => info.kind === 'request' && info.cacheable);

/**
 * Requests a client sends in some legacy revision that no modern revision defines (`initialize`, `ping`,
 * `logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`, the 2025-11-25 `tasks/*`): in a request
 * carrying the 2026-07-28 `_meta` they are unknown methods.
 */
export const LEGACY_ONLY_METHODS: ReadonlySet<string> = methodSet(
  (info) =>
    info.kind === 'request' && !info.eras.includes('modern') && LEGACY_PROTOCOL_VERSIONS.some((revision) => sentByClientIn(info, revision)),
);

/**
 * Requests that exist only in the modern era (`server/discover`, `subscriptions/listen`): a request for one of
 * them is modern even without the per-request `_meta` (and is then refused for the missing fields).
 */
export const MODERN_ONLY_METHODS: ReadonlySet<string> = methodSet(
  (info) =>
    info.kind === 'request' && !info.eras.includes('legacy') && MODERN_PROTOCOL_VERSIONS.some((revision) => sentByClientIn(info, revision)),
);
