/**
 * The 2026-07-28 request envelope: the per-request `_meta` that replaces the legacy session. Which messages claim it,
 * and what makes it valid, are decided here once; the HTTP transport (before dispatch, to answer with HTTP 400) and
 * the server (for any transport) both ask this module.
 */
import { isLogLevel, MetaKey, type LogLevel } from './meta.js';
import { quoteInput } from './errors.js';

/** The `_meta` of a message's params, when it is an object. */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as Record<string, unknown>)._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined;
}

/**
 * True when a `_meta` claims the 2026-07-28 envelope: it carries either of the per-request keys (protocol version or
 * client capabilities). A claim is then held to {@link readModernEnvelope}'s rules; it is never read as legacy.
 */
export function claimsModernEnvelope(meta: unknown): meta is Record<string, unknown> {
  if (typeof meta !== 'object' || meta === null) return false;
  const record = meta as Record<string, unknown>;
  return record[MetaKey.protocolVersion] !== undefined || record[MetaKey.clientCapabilities] !== undefined;
}

/** A valid 2026-07-28 envelope, read. */
export interface ModernEnvelope {
  /** The protocol version the request names (whether this peer supports it is the caller's question). */
  readonly protocolVersion: string;
  readonly clientCapabilities: Record<string, unknown>;
  /** The client's `Implementation`, when it sent an object. */
  readonly clientInfo: Record<string, unknown> | undefined;
  readonly logLevel: LogLevel | undefined;
}

/** Why an envelope is not valid: always answered with `-32602` (Invalid params). */
export interface EnvelopeProblem {
  readonly problem: string;
}

/**
 * Reads a 2026-07-28 envelope, checking it in this order: a missing (or non-string) protocol version, missing (or
 * non-object) client capabilities, an invalid log level. Returns the envelope, or the first problem.
 */
export function readModernEnvelope(meta: Record<string, unknown> | undefined): ModernEnvelope | EnvelopeProblem {
  const protocolVersion = meta?.[MetaKey.protocolVersion];
  if (typeof protocolVersion !== 'string') return { problem: `Missing required _meta field "${MetaKey.protocolVersion}"` };
  const clientCapabilities = meta![MetaKey.clientCapabilities];
  if (typeof clientCapabilities !== 'object' || clientCapabilities === null || Array.isArray(clientCapabilities)) {
    return { problem: `Missing required _meta field "${MetaKey.clientCapabilities}"` };
  }
  const logLevel = meta![MetaKey.logLevel];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    return { problem: `Invalid log level ${quoteInput(logLevel)} in _meta "${MetaKey.logLevel}"` };
  }
  const clientInfo = meta![MetaKey.clientInfo];
  return {
    protocolVersion,
    clientCapabilities: clientCapabilities as Record<string, unknown>,
    clientInfo: typeof clientInfo === 'object' && clientInfo !== null ? (clientInfo as Record<string, unknown>) : undefined,
    logLevel,
  };
}

/** True when {@link readModernEnvelope} found a problem. */
export function isEnvelopeProblem(read: ModernEnvelope | EnvelopeProblem): read is EnvelopeProblem {
  return (read as EnvelopeProblem).problem !== undefined;
}
