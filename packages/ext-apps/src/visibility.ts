/**
 * Tool visibility (`_meta.ui.visibility`): a host offers the model only tools whose visibility includes "model", and
 * lets a view call only tools of its own server whose visibility includes "app". The default is both.
 */
import type { UiToolMeta, UiVisibility } from './wire.js';

/** Anything with a tool's `_meta`. */
export interface ToolLike {
  readonly name: string;
  readonly _meta?: { readonly [key: string]: unknown };
}

const BOTH: readonly UiVisibility[] = ['model', 'app'];

/** The `_meta.ui` of a tool, when it has a well-formed one. */
export function uiMetaOf(tool: ToolLike): UiToolMeta | undefined {
  const ui = tool._meta?.ui;
  return ui !== null && typeof ui === 'object' && !Array.isArray(ui) ? (ui as UiToolMeta) : undefined;
}

/** The tool's visibility: its `_meta.ui.visibility` when it is a list of known values, else both. */
export function visibilityOf(tool: ToolLike): readonly UiVisibility[] {
  const visibility = uiMetaOf(tool)?.visibility;
  if (!Array.isArray(visibility)) return BOTH;
  return visibility.filter((value): value is UiVisibility => value === 'model' || value === 'app');
}

/** The tool may be offered to the model. */
export function isModelVisible(tool: ToolLike): boolean {
  return visibilityOf(tool).includes('model');
}

/** A view of the tool's own server may call it. */
export function isAppCallable(tool: ToolLike): boolean {
  return visibilityOf(tool).includes('app');
}

/** The tools to offer the model: those whose visibility includes "model" (app-only tools left out). */
export function modelVisibleTools<T extends ToolLike>(tools: readonly T[]): T[] {
  return tools.filter(isModelVisible);
}

/** The `ui://` resource that renders a tool's results (`_meta.ui.resourceUri`), if any. */
export function resourceUriOf(tool: ToolLike): string | undefined {
  const uri = uiMetaOf(tool)?.resourceUri;
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/** The host's `io.modelcontextprotocol/ui` settings in client capabilities, when it renders HTML views. */
export function uiCapabilityOf(capabilities: unknown): { mimeTypes: string[] } | undefined {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  const ui = extensions?.['io.modelcontextprotocol/ui'] as { mimeTypes?: unknown } | undefined;
  if (!ui || !Array.isArray(ui.mimeTypes)) return undefined;
  const mimeTypes = ui.mimeTypes.filter((type): type is string => typeof type === 'string');
  return mimeTypes.includes('text/html;profile=mcp-app') ? { mimeTypes } : undefined;
}
