/**
 * What the client library does around the host's elicitation handler: fills in the defaults of a form's
 * requested schema the user left empty (SEP-1034), and refuses URL-mode requests unless the host opted in to URL
 * mode (it carries obligations only the host can meet: showing the full URL and its domain, asking consent before
 * opening it, never opening it automatically).
 */
import { LocalError } from '@wiremcp/protocol';
import type { ElicitationHandler, ElicitationOptions } from './options.js';
import type { ElicitParams, ElicitResult } from './types.js';

/** A primitive a form field's `default` may hold. */
type Primitive = string | number | boolean;

function isPrimitive(value: unknown): value is Primitive {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * The content of an accepted form with every property the user left out set to its schema `default` (string,
 * number, integer, boolean, single-select enum). Properties the user gave are never changed; a multi-select
 * default (an array of strings) is copied too.
 */
export function applyElicitationDefaults(params: ElicitParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept') return result;
  const schema = (params as { requestedSchema?: { properties?: unknown } }).requestedSchema;
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null) return result;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  let changed = false;
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (Object.hasOwn(content, name) || typeof property !== 'object' || property === null) continue;
    const fallback = (property as { default?: unknown }).default;
    if (isPrimitive(fallback) || (Array.isArray(fallback) && fallback.every((item) => typeof item === 'string'))) {
      content[name] = Array.isArray(fallback) ? [...fallback] : fallback;
      changed = true;
    }
  }
  return changed ? ({ ...result, content } as ElicitResult) : result;
}

/**
 * Wraps the host's elicitation handler: URL-mode requests fail with `CAPABILITY_NOT_SUPPORTED` unless
 * `options.url` is true, and accepted forms get their schema defaults unless `options.applyDefaults` is false.
 */
export function wrapElicitationHandler(handler: ElicitationHandler, options: ElicitationOptions | undefined): ElicitationHandler {
  const url = options?.url === true;
  const defaults = options?.applyDefaults !== false;
  return async (params, context) => {
    if ((params as { mode?: unknown }).mode === 'url' && !url) {
      throw new LocalError('CAPABILITY_NOT_SUPPORTED', 'The server asked for URL-mode elicitation, which this client did not declare', {
        details: { method: 'elicitation/create', capability: 'elicitation.url' },
      });
    }
    const result = await handler(params, context);
    return defaults ? applyElicitationDefaults(params, result) : result;
  };
}
