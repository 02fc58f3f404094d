/**
 * Scope selection (MCP authorization §Scope Selection Strategy, §Step-Up Authorization Flow, SEP-2207): the
 * challenge's `scope`, else the resource's `scopes_supported`, else none; unions with earlier requests on
 * re-authorization; `offline_access` only when the authorization server lists it.
 */

/** Splits a space-separated scope string into unique scopes. */
export function splitScopes(value: string | readonly string[] | undefined): string[] {
  const list = typeof value === 'string' ? value.split(/\s+/) : (value ?? []);
  return [...new Set(list.filter((s) => s.length > 0))];
}

/** Inputs of {@link selectScopes}. */
export interface ScopeSelectionInput {
  /** Scopes configured by the application; they replace the automatic choice. */
  readonly configured?: readonly string[];
  /** `scope` of the 401/403 challenge. */
  readonly challenged?: string;
  /** `scopes_supported` of the protected resource metadata. */
  readonly resourceScopes?: readonly string[];
  /** Scopes requested before from the same authorization server (for the union on re-authorization). */
  readonly previous?: readonly string[];
  /** `scopes_supported` of the authorization server. */
  readonly serverScopes?: readonly string[];
  /** Ask for `offline_access` (a refresh token) when the authorization server supports it. */
  readonly offlineAccess: boolean;
}

/** The scopes to request, or `undefined` to omit the `scope` parameter. */
export function selectScopes(input: ScopeSelectionInput): string[] | undefined {
  const chosen = new Set(input.configured ?? (input.challenged ? splitScopes(input.challenged) : splitScopes(input.resourceScopes)));
  for (const scope of input.previous ?? []) chosen.add(scope);
  const offline = input.serverScopes?.includes('offline_access') ?? false;
  if (!offline) chosen.delete('offline_access');
  else if (input.offlineAccess && chosen.size > 0) chosen.add('offline_access');
  return chosen.size > 0 ? [...chosen] : undefined;
}
