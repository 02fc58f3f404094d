/**
 * Health endpoints for orchestrators and load balancers: `GET /healthz` (liveness: the process serves HTTP) and
 * `GET /readyz` (readiness: the `ready` check passes — e.g. shared state reachable, not draining). They are answered
 * after the `Host` and `Origin` checks (so DNS rebinding protection still holds) and before authentication (probes
 * carry no token). They reveal no secret: a status word, and for a failed readiness check a short reason chosen by
 * the server (`draining`, `redis unreachable`), never an error's text.
 */
import type { HttpReply } from './adapter-contract.js';
import { emptyResponse, jsonResponse } from './responses.js';

/** What a readiness check found: ready, or not with a short reason safe to show to anyone. */
export type Readiness = { readonly ready: true } | { readonly ready: false; readonly reason: string };

/** Options of the health endpoints (`createHttpHandler`'s `health`). */
export interface HealthOptions {
  /** The liveness path (default `/healthz`). */
  readonly livePath?: string;
  /** The readiness path (default `/readyz`). */
  readonly readyPath?: string;
  /**
   * Decides readiness; called for every `/readyz` request, so it should be cheap (cache a check of a dependency).
   * A check that throws counts as not ready (`check failed`). Default: always ready.
   */
  readonly ready?: () => Readiness | Promise<Readiness>;
}

/** The resolved health options. */
export interface ResolvedHealth {
  readonly livePath: string;
  readonly readyPath: string;
  readonly ready: (() => Readiness | Promise<Readiness>) | undefined;
}

const HEADERS = { 'cache-control': 'no-store' };

/** Answers a health path, or returns `undefined` when `path` is not one. */
export async function serveHealth(health: ResolvedHealth, path: string, method: string): Promise<HttpReply | undefined> {
  if (path !== health.livePath && path !== health.readyPath) return undefined;
  if (method !== 'GET' && method !== 'HEAD') return emptyResponse(405, { allow: 'GET, HEAD' });
  let readiness: Readiness = { ready: true };
  if (path === health.readyPath && health.ready !== undefined) {
    try {
      readiness = await health.ready();
    } catch {
      readiness = { ready: false, reason: 'check failed' };
    }
  }
  const body = readiness.ready ? { status: 'ok' } : { status: 'unavailable', reason: readiness.reason.slice(0, 100) };
  return jsonResponse(readiness.ready ? 200 : 503, method === 'HEAD' ? '' : JSON.stringify(body), HEADERS);
}
