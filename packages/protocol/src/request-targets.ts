/**
 * What a request acts on: the tool, prompt, resource or task its params name. One table says, per method, which
 * params field holds that name and whether a 2026-07-28 request mirrors it into the `Mcp-Name` header; the server's
 * header check, the client's header writer and the authorization decision all read it from here, so they cannot
 * disagree about which field a method names.
 */

/** The kind of thing a request names. A `resource-template` is the URI template a completion refers to. */
export type TargetKind = 'tool' | 'prompt' | 'resource' | 'resource-template' | 'task';

/** One thing a request acts on: a tool or prompt name, a resource URI or URI template, a task id. */
export interface RequestTarget {
  readonly kind: TargetKind;
  readonly name: string;
}

/** The params field of a method that names what it acts on. */
export type NamedField = 'name' | 'uri' | 'taskId';

interface NamedMethod {
  readonly kind: TargetKind;
  readonly field: NamedField;
  /** A 2026-07-28 request of this method carries the field's value in `Mcp-Name`. */
  readonly mirrored: boolean;
}

// A Map, not an object literal: a method read off the wire (`constructor`, `__proto__`) must find nothing.
const NAMED = new Map<string, NamedMethod>([
  ['tools/call', { kind: 'tool', field: 'name', mirrored: true }],
  ['prompts/get', { kind: 'prompt', field: 'name', mirrored: true }],
  ['resources/read', { kind: 'resource', field: 'uri', mirrored: true }],
  ['resources/subscribe', { kind: 'resource', field: 'uri', mirrored: false }],
  ['resources/unsubscribe', { kind: 'resource', field: 'uri', mirrored: false }],
  // The tasks extension (2026-07-28) mirrors the task id so that intermediaries can route by task.
  ['tasks/get', { kind: 'task', field: 'taskId', mirrored: true }],
  ['tasks/update', { kind: 'task', field: 'taskId', mirrored: true }],
  ['tasks/cancel', { kind: 'task', field: 'taskId', mirrored: true }],
  // 2025-11-25 only: never sent with `Mcp-Name`.
  ['tasks/result', { kind: 'task', field: 'taskId', mirrored: false }],
]);

/** The params field a 2026-07-28 request of `method` mirrors into `Mcp-Name`, or `undefined` for none. */
export function mirroredNameField(method: string): NamedField | undefined {
  const named = NAMED.get(method);
  return named !== undefined && named.mirrored ? named.field : undefined;
}

/** The value a 2026-07-28 request of `method` with `params` mirrors into `Mcp-Name`, when it has a string one. */
export function mirroredName(method: string, params: unknown): string | undefined {
  const field = mirroredNameField(method);
  if (field === undefined || typeof params !== 'object' || params === null) return undefined;
  const value = (params as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
}

/** The target a request of `method` names when its named field holds `name` (e.g. a decoded `Mcp-Name`). */
export function targetOfName(method: string, name: string): RequestTarget | undefined {
  const named = NAMED.get(method);
  return named === undefined ? undefined : { kind: named.kind, name };
}

/** What {@link requestTargets} found: the targets (often none), or why the params cannot say. */
export type TargetsOf = { readonly targets: readonly RequestTarget[] } | { readonly invalid: string };

const NONE: TargetsOf = { targets: [] };

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Everything a request acts on, read from its params: the named field of the methods of the table above,
 * `completion/complete`'s `ref` (a prompt, or a resource URI template), and the resource URIs a
 * `subscriptions/listen` stream subscribes to. A named field that is present but of the wrong type (a `name` that
 * is not a string, a `ref` of an unknown type) is `invalid`: a caller deciding anything from the targets must refuse
 * such a request rather than guess.
 */
export function requestTargets(method: string, params: unknown): TargetsOf {
  const named = NAMED.get(method);
  const fields = record(params);
  if (named !== undefined) {
    const value = fields?.[named.field];
    if (value === undefined) return NONE;
    if (typeof value !== 'string') return { invalid: `params.${named.field} must be a string` };
    return { targets: [{ kind: named.kind, name: value }] };
  }
  if (fields === undefined) return NONE;
  if (method === 'completion/complete') {
    if (fields.ref === undefined) return NONE;
    const ref = record(fields.ref);
    if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') return { targets: [{ kind: 'prompt', name: ref.name }] };
    if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') return { targets: [{ kind: 'resource-template', name: ref.uri }] };
    return { invalid: 'params.ref must be a prompt reference with a name or a resource reference with a uri' };
  }
  if (method === 'subscriptions/listen') {
    const subscriptions = record(fields.notifications)?.resourceSubscriptions;
    if (subscriptions === undefined) return NONE;
    if (!Array.isArray(subscriptions) || !subscriptions.every((uri) => typeof uri === 'string')) {
      return { invalid: 'params.notifications.resourceSubscriptions must be an array of strings' };
    }
    return { targets: subscriptions.map((uri: string) => ({ kind: 'resource', name: uri })) };
  }
  return NONE;
}
