export {
  UI_EXTENSION,
  UI_PROTOCOL_VERSION,
  UI_MIME_TYPE,
  UI_SCHEME,
  UI_METHODS,
  type UiResourceCsp,
  type UiPermissions,
  type UiResourceMeta,
  type UiVisibility,
  type UiToolMeta,
  type UiClientCapability,
  type UiDisplayMode,
} from './wire.js';
export {
  uiMetaOf,
  visibilityOf,
  isModelVisible,
  isAppCallable,
  modelVisibleTools,
  resourceUriOf,
  uiCapabilityOf,
  type ToolLike,
} from './visibility.js';
export { buildCsp, cspProblems, MAX_CSP_DOMAINS } from './csp.js';
