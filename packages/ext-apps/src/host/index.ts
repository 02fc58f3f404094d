export { AppBridge } from './app-bridge.js';
export type { AppBridgeOptions, AppBridgeLimits, AppBridgeProblem, AppConsentHooks, AppServerConnection, Consent } from './bridge-types.js';
export { viewDocument, allowAttribute, MAX_VIEW_HTML_BYTES } from './view-document.js';
export { TokenBucket } from './rate-limit.js';
