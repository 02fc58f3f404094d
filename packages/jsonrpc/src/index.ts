export { Peer } from './peer.js';
export { RequestContext, type ContextHost, type BatchCollector } from './request-context.js';
export type { Transport, SendOptions, MessageInfo } from './transport.js';
export { createLinkedPair, type LinkedPairOptions, type LinkedTransportEnd } from './linked-pair.js';
export {
  messageKind,
  describeInvalid,
  answerForTransportError,
  isBrokenResponse,
  MessageKind,
  type MessageKindValue,
  type InvalidMessage,
} from './classify.js';
export { batchRefused } from './batch.js';
export { errorObjectFor, type InternalErrorReporter } from './error-object.js';
export { reportInternalError } from './internal-error.js';
export { DEFAULT_REQUEST_TIMEOUT_MS, abortError, connectionClosedError } from './outbound.js';
export type {
  RequestMap,
  NotificationMap,
  AnyRequests,
  AnyNotifications,
  RequestHandler,
  FallbackRequestHandler,
  NotificationHandler,
  Progress,
  RequestOptions,
  NotificationOptions,
  PeerOptions,
} from './types.js';
export { parsePayload } from './parse-payload.js';
export { RequestTable } from './request-table.js';
export { preserialize, stringifyMessage } from './message-json.js';
export {
  MessagePortTransport,
  DEFAULT_PORT_MAX_MESSAGE_BYTES,
  type MessagePortLike,
  type MessagePortTransportOptions,
} from './message-port-transport.js';
export {
  startOperation,
  endOperation,
  observeOutcome,
  startSession,
  type Instrumentation,
  type McpSession,
  type SessionObserver,
  type McpOperation,
  type OperationObserver,
  type OperationOutcome,
} from './instrumentation.js';
