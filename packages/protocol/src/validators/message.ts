/**
 * Validation of whole JSON-RPC messages of one revision: the envelope first (request, notification, result or
 * error response), then, when the method is known, the method's own definition from the method table.
 */
import { getMethodInfo, getMethodRevisionInfo } from '../methods.js';
import type { ProtocolVersion } from '../versions.js';
import type { ErrorCodeDefinition } from './compiled-validator.js';
import type { MessageKind, MessageValidationOptions, MessageValidationResult, ValidationIssue, ValidationResult } from './types.js';

/** What `createMessageValidator` needs from a revision's validators. */
export interface MessageValidatorSource {
  readonly revision: ProtocolVersion;
  readonly isDefinitionName: (name: string) => boolean;
  readonly validate: (definition: string, value: unknown) => ValidationResult;
  readonly errorCodeDefinitions: Readonly<Record<string, ErrorCodeDefinition>>;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function classify(message: JsonObject): MessageKind {
  if ('method' in message) return 'id' in message ? 'request' : 'notification';
  if ('result' in message) return 'result';
  if ('error' in message) return 'error';
  return 'invalid';
}

function prefixed(result: ValidationResult, prefix: string): ValidationIssue[] {
  return result.errors.map((issue) => ({ ...issue, path: prefix + issue.path }));
}

/** Builds `validateMessage(message, options)` for one revision. */
export function createMessageValidator(
  source: MessageValidatorSource,
): (message: unknown, options?: MessageValidationOptions) => MessageValidationResult {
  const { revision, isDefinitionName, validate, errorCodeDefinitions } = source;
  // Envelope definitions were renamed over time: JSONRPCResponse/JSONRPCError (up to 2025-06-18) became
  // JSONRPCResultResponse/JSONRPCErrorResponse (2025-11-25); batches exist only in 2025-03-26.
  const envelope: Record<Exclude<MessageKind, 'batch'>, string> = {
    request: 'JSONRPCRequest',
    notification: 'JSONRPCNotification',
    result: isDefinitionName('JSONRPCResultResponse') ? 'JSONRPCResultResponse' : 'JSONRPCResponse',
    error: isDefinitionName('JSONRPCErrorResponse') ? 'JSONRPCErrorResponse' : 'JSONRPCError',
    invalid: 'JSONRPCMessage',
  };
  const batching = isDefinitionName('JSONRPCBatchRequest');

  function finish(
    kind: MessageKind,
    definitions: string[],
    errors: ValidationIssue[],
    extra: Partial<MessageValidationResult> = {},
  ): MessageValidationResult {
    return { valid: errors.length === 0, errors, kind, definitions, ...extra };
  }

  function validateMethodMessage(message: JsonObject, kind: 'request' | 'notification', options: MessageValidationOptions) {
    const method = message['method'];
    const errors = prefixed(validate(envelope[kind], message), '');
    const definitions = [envelope[kind]];
    if (typeof method !== 'string' || errors.length > 0) return finish(kind, definitions, errors);
    const entry = getMethodInfo(method);
    const info = entry?.byRevision[revision];
    if (entry === undefined || info === undefined) return finish(kind, definitions, errors, { method, knownMethod: false });
    const expected = entry.kind;
    if (expected !== kind) {
      const what = expected === 'request' ? 'must carry an id' : 'must not carry an id';
      errors.push({ path: '', message: `"${method}" is a ${expected} in ${revision}: it ${what}`, keyword: 'kind' });
      return finish(kind, definitions, errors, { method, knownMethod: true });
    }
    definitions.push(info.definition);
    errors.push(...validate(info.definition, message).errors);
    const from = options.from;
    if (from !== undefined && info.direction !== 'both' && info.direction !== `${from}-to-${from === 'client' ? 'server' : 'client'}`) {
      errors.push({ path: '/method', message: `"${method}" is not sent by the ${from} in ${revision}`, keyword: 'direction' });
    }
    return finish(kind, definitions, errors, { method, knownMethod: true });
  }

  function validateResult(message: JsonObject, options: MessageValidationOptions) {
    const errors = prefixed(validate(envelope.result, message), '');
    const definitions = [envelope.result];
    const info = options.method === undefined ? undefined : getMethodRevisionInfo(options.method, revision);
    if (errors.length === 0 && info?.resultDefinition !== undefined) {
      const result = message['result'];
      // The answer's shape depends on the answer itself: an MRTR result (2026) says so in resultType, a
      // task-augmented request (2025-11-25) is answered with `{task}`.
      let definition = info.resultDefinition;
      if (info.inputRequired === true && isObject(result) && result['resultType'] === 'input_required') {
        definition = 'InputRequiredResult';
      } else if (info.taskAugmentable === true && isObject(result) && 'task' in result) {
        definition = 'CreateTaskResult';
      }
      definitions.push(definition);
      errors.push(...prefixed(validate(definition, result), '/result'));
    }
    return finish('result', definitions, errors, options.method === undefined ? {} : { method: options.method });
  }

  function validateError(message: JsonObject) {
    const errors = prefixed(validate(envelope.error, message), '');
    const definitions = [envelope.error];
    const error = message['error'];
    const specific = errors.length === 0 && isObject(error) ? errorCodeDefinitions[String(error['code'])] : undefined;
    if (specific !== undefined) {
      definitions.push(specific.definition);
      const target = specific.shape === 'response' ? message : error;
      errors.push(...prefixed(validate(specific.definition, target), specific.shape === 'response' ? '' : '/error'));
    }
    return finish('error', definitions, errors);
  }

  function validateBatch(batch: unknown[], options: MessageValidationOptions): MessageValidationResult {
    if (!batching) {
      return finish(
        'batch',
        [],
        [{ path: '', message: `batches (JSON arrays) are not part of ${revision}; only 2025-03-26 has them`, keyword: 'batch' }],
      );
    }
    if (batch.length === 0) {
      return finish('batch', [], [{ path: '', message: 'a batch must contain at least one message', keyword: 'batch' }]);
    }
    const items = batch.map((item) => (Array.isArray(item) ? invalidNested() : validateOne(item, options)));
    const errors = items.flatMap((item, index) => item.errors.map((issue) => ({ ...issue, path: `/${index}${issue.path}` })));
    // 2025-03-26 lifecycle: "The initialization request MUST NOT be part of a JSON-RPC batch".
    batch.forEach((item, index) => {
      if (isObject(item) && item['method'] === 'initialize') {
        errors.push({ path: `/${index}`, message: 'initialize must not be part of a JSON-RPC batch', keyword: 'batch' });
      }
    });
    const outgoing = items.filter((item) => item.kind === 'request' || item.kind === 'notification').length;
    if (errors.length === 0 && outgoing !== 0 && outgoing !== items.length) {
      errors.push({ path: '', message: 'a batch holds either requests and notifications or responses, not both', keyword: 'batch' });
    }
    const definition = outgoing === items.length ? 'JSONRPCBatchRequest' : 'JSONRPCBatchResponse';
    return finish('batch', [definition], errors, { items });
  }

  function invalidNested(): MessageValidationResult {
    return finish('invalid', [], [{ path: '', message: 'a batch must not contain another batch', keyword: 'batch' }]);
  }

  function validateOne(message: unknown, options: MessageValidationOptions): MessageValidationResult {
    if (!isObject(message)) return finish('invalid', [envelope.invalid], validate(envelope.invalid, message).errors);
    const kind = classify(message);
    switch (kind) {
      case 'request':
      case 'notification':
        return validateMethodMessage(message, kind, options);
      case 'result':
        return validateResult(message, options);
      case 'error':
        return validateError(message);
      default:
        return finish('invalid', [envelope.invalid], validate(envelope.invalid, message).errors);
    }
  }

  return (message, options = {}) => (Array.isArray(message) ? validateBatch(message, options) : validateOne(message, options));
}
