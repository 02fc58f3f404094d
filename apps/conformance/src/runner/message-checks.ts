/**
 * The checks every message a server sends goes through, whatever the scenario expects: the revision's JSON
 * Schema (through `@wiremcp/protocol/validators`) and the protocol rules a single message can break on its own.
 */
import { capabilityFor, type ProtocolVersion } from '@wiremcp/protocol';
import { formatValidationIssues, loadValidators, type ValidationIssue } from '@wiremcp/protocol/validators';
import { capabilityPaths } from '../targets/target.js';

/** A rule a server message broke. */
export interface MessageProblem {
  readonly summary: string;
  readonly issues?: readonly ValidationIssue[];
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request the client sent: its method, and the revision its answer is validated against. */
export interface SentRequest {
  /** Absent for a malformed request (its method is not a string). */
  readonly method?: string;
  readonly revision: ProtocolVersion;
}

/** What the checks need to know about the cell so far. */
export interface CheckContext {
  readonly revision: ProtocolVersion;
  readonly era: 'legacy' | 'modern';
  /** Each request the client sent, by `JSON.stringify(id)`. */
  readonly sentRequests: ReadonlyMap<string, SentRequest>;
  /** Ids (stringified) already answered by the server. */
  readonly answered: Set<string>;
  /** The client capabilities declared so far (legacy: at initialize). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
}

/**
 * JSON-RPC 2.0 §5 requires `id: null` on an error about a request whose id could not be read (parse error,
 * invalid request), while MCP's `RequestId` is `string | integer` (2025-11-25 made the id optional for this
 * case). Such an error is judged on everything but its id: both `null` and an absent id are accepted.
 */
function forValidation(message: JsonObject): JsonObject {
  if ('error' in message && !('method' in message) && (message['id'] === null || !('id' in message))) return { ...message, id: 0 };
  return message;
}

/** Schema problems of one message (a 2025-03-26 batch is checked element by element). */
async function schemaProblems(message: unknown, context: CheckContext): Promise<MessageProblem[]> {
  const batch = Array.isArray(message) && context.revision === '2025-03-26';
  const items = batch ? (message as unknown[]) : [message];
  const problems: MessageProblem[] = [];
  for (const item of items) {
    if (!isObject(item)) {
      const result = (await loadValidators(context.revision)).validateMessage(item, { from: 'server' });
      if (!result.valid) problems.push({ summary: `not a JSON-RPC message of ${context.revision}`, issues: result.errors });
      continue;
    }
    const isResponse = !('method' in item) && ('result' in item || 'error' in item);
    const request = isResponse ? context.sentRequests.get(JSON.stringify(item['id'])) : undefined;
    const revision = request?.revision ?? context.revision;
    const validators = await loadValidators(revision);
    const result = validators.validateMessage(
      forValidation(item),
      request?.method === undefined ? { from: 'server' } : { from: 'server', method: request.method },
    );
    if (!result.valid) {
      const what =
        request === undefined
          ? typeof item['method'] === 'string'
            ? item['method']
            : 'message'
          : `response to ${request.method ?? 'a malformed request'}`;
      problems.push({
        summary: `${what} does not match the ${revision} schema (${result.definitions.join(' → ')}): ${formatValidationIssues(result.errors)}`,
        issues: result.errors,
      });
    }
  }
  return problems;
}

/** Protocol rules: responses only to ids the client used, once; no server requests in 2026; capability gates. */
function protocolProblems(message: unknown, context: CheckContext): MessageProblem[] {
  const items = Array.isArray(message) ? message : [message];
  const problems: MessageProblem[] = [];
  for (const item of items) {
    if (!isObject(item)) continue;
    const hasMethod = typeof item['method'] === 'string';
    if (!hasMethod && ('result' in item || 'error' in item)) {
      const id = item['id'];
      if (id === null || id === undefined) continue;
      const key = JSON.stringify(id);
      if (!context.sentRequests.has(key)) problems.push({ summary: `response to id ${key}, which the client never used` });
      else if (context.answered.has(key)) problems.push({ summary: `second response to id ${key}` });
      context.answered.add(key);
      continue;
    }
    if (hasMethod && 'id' in item) {
      const method = item['method'] as string;
      if (context.era === 'modern') {
        problems.push({
          summary: `the server sent a JSON-RPC request (${method}); 2026-07-28 servers MUST NOT initiate requests (input-required results replace them)`,
        });
        continue;
      }
      const gate = capabilityFor(method, context.revision);
      if (gate?.startsWith('client:')) {
        const path = gate.slice('client:'.length);
        if (!capabilityPaths(context.clientCapabilities).has(path)) {
          problems.push({ summary: `the server sent ${method} although the client did not declare the '${path}' capability` });
        }
      }
    }
  }
  return problems;
}

/** Every problem of one incoming message; empty when it is fine. */
export async function checkServerMessage(message: unknown, context: CheckContext): Promise<MessageProblem[]> {
  return [...protocolProblems(message, context), ...(await schemaProblems(message, context))];
}
