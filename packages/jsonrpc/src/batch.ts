import { ErrorCode, type RpcErrorResponse, type RpcMessage } from '@wiremcp/protocol';
import { describeInvalid, MessageKind, messageKind } from './classify.js';
import type { BatchCollector } from './request-context.js';
import type { MessageInfo } from './transport.js';

/** What {@link receiveBatch} needs from the engine. */
export interface BatchHost {
  /** Processes one element; requests report their response (or `undefined` when cancelled) to the collector. */
  receiveOne(message: unknown, info: MessageInfo, collector: BatchCollector | undefined): void;
  /** Sends the batch's answer. */
  write(responses: RpcMessage | RpcMessage[]): void;
}

/** The answer to a batch (an array) where batches are not accepted: every revision but 2025-03-26. */
export function batchRefused(): RpcErrorResponse {
  return {
    jsonrpc: '2.0',
    id: null,
    error: {
      code: ErrorCode.InvalidRequest,
      message: 'Invalid request: JSON-RPC batches are not supported by the negotiated protocol version',
    },
  };
}

/**
 * Processes a JSON-RPC batch (2025-03-26) and sends one array holding the response of every request in it, once
 * all of them have finished. Notifications and responses in the batch have no entry; invalid elements get an
 * error entry; an empty batch is itself an invalid request (answered with one error object); a batch without requests gets no answer at all.
 */
export function receiveBatch(messages: unknown[], info: MessageInfo | undefined, host: BatchHost): void {
  if (messages.length === 0) {
    // JSON-RPC 2.0: an empty array is answered with a single error object, not an array.
    host.write({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: 'Invalid request: empty batch' } });
    return;
  }
  const responses: RpcMessage[] = [];
  let outstanding = 0;
  let dispatching = true;
  const flush = (): void => {
    if (responses.length > 0) host.write(responses);
  };
  const collector: BatchCollector = {
    add: (response) => {
      if (response !== undefined) responses.push(response as RpcMessage);
      outstanding -= 1;
      if (outstanding === 0 && !dispatching) flush();
    },
  };
  const batchInfo: MessageInfo = { ...info, inBatch: true };
  for (const message of messages) {
    if (messageKind(message) === MessageKind.Request) outstanding += 1;
  }
  for (const message of messages) {
    const kind = messageKind(message);
    if (kind === MessageKind.Invalid) {
      const invalid = Array.isArray(message)
        ? { id: null, code: ErrorCode.InvalidRequest, message: 'Invalid request: nested batch' }
        : describeInvalid(message);
      responses.push({ jsonrpc: '2.0', id: invalid.id, error: { code: invalid.code, message: invalid.message } });
      continue;
    }
    host.receiveOne(message, batchInfo, kind === MessageKind.Request ? collector : undefined);
  }
  dispatching = false;
  if (outstanding === 0) flush();
}
