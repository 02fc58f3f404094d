import type { ProtocolVersion } from '@wiremcp/protocol';
import { TASKS_EXTENSION } from './task-wire.js';
import type { Implementation } from './types.js';

/** Capabilities a server author can force on or off; the rest follows from what is registered. */
export interface CapabilityOptions {
  /** Declare `tools` even with no tool registered yet (so tools added later can be announced). */
  tools?: boolean;
  /** Declare `resources` even with none registered; `subscribe` defaults to true. */
  resources?: boolean | { subscribe?: boolean };
  /** Declare `prompts` even with none registered. */
  prompts?: boolean;
  /** Declare `completions` (default: when any prompt argument or template variable has a completer). */
  completions?: boolean;
  /** Declare `logging` (default true: handlers can log through their context). */
  logging?: boolean;
  /** Experimental capabilities, passed through. */
  experimental?: Record<string, Record<string, unknown>>;
  /** 2026-07-28 extensions (`capabilities.extensions`), passed through to modern clients. */
  extensions?: Record<string, Record<string, unknown>>;
}

/** What the registries hold right now. */
export interface RegistryState {
  tools: number;
  resources: number;
  prompts: number;
  completions: boolean;
  /** Tasks are served (a task-capable tool is registered, or the `tasks` option is set). */
  tasks: boolean;
}

/**
 * The server capabilities for a revision: derived from what is registered unless forced by the options.
 * List-change notifications are always declared, since the registries can change at runtime. `declared` are the
 * extensions declared at runtime (`McpServer.declareExtension`): they go to every revision, since hosts negotiate
 * extensions such as MCP Apps and Skills over legacy sessions too (the capabilities are an open set there).
 */
export function deriveCapabilities(
  options: CapabilityOptions,
  state: RegistryState,
  version: ProtocolVersion,
  declared?: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
): Record<string, unknown> {
  const caps: Record<string, unknown> = {};
  if (options.experimental) caps.experimental = options.experimental;
  if (options.logging !== false) caps.logging = {};
  const completions = options.completions ?? state.completions;
  // `completions` is a capability from 2025-03-26; in 2024-11-05 completion/complete is ungated.
  if (completions && version !== '2024-11-05') caps.completions = {};
  if (options.prompts ?? state.prompts > 0) caps.prompts = { listChanged: true };
  const resources = options.resources ?? state.resources > 0;
  if (resources) {
    const subscribe = typeof resources === 'object' ? resources.subscribe !== false : true;
    caps.resources = subscribe ? { subscribe: true, listChanged: true } : { listChanged: true };
  }
  if (options.tools ?? state.tools > 0) caps.tools = { listChanged: true };
  // 2025-11-25 tasks are a core capability; 2026-07-28 moved them to an extension.
  if (state.tasks && version === '2025-11-25') caps.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
  let extensions: Record<string, unknown> | undefined;
  if (version >= '2026-07-28') extensions = state.tasks ? { ...options.extensions, [TASKS_EXTENSION]: {} } : options.extensions;
  if (declared !== undefined && declared.size > 0) extensions = { ...extensions, ...Object.fromEntries(declared) };
  if (extensions) caps.extensions = extensions;
  return caps;
}

/** The server's `Implementation` with only the fields the revision defines. */
export function implementationFor(info: Implementation, version: ProtocolVersion): Implementation {
  if (version === '2024-11-05' || version === '2025-03-26') return { name: info.name, version: info.version };
  if (version === '2025-06-18')
    return info.title === undefined
      ? { name: info.name, version: info.version }
      : { name: info.name, title: info.title, version: info.version };
  return info;
}
