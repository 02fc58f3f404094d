/**
 * `/healthz` and `/readyz` on the metrics listener (`--health` with `--metrics`): the same answers as on the HTTP
 * listener (`200 {"status":"ok"}`, or `503 {"status":"unavailable","reason":…}`), so one probe configuration works on
 * either. For a stdio server the metrics listener is the only place they can be.
 */
import type { EndpointAnswer } from '@wiremcp/otel/node';
import type { Readiness } from '@wiremcp/transport-http';

function answer(readiness: Readiness): EndpointAnswer {
  const body = readiness.ready ? { status: 'ok' } : { status: 'unavailable', reason: readiness.reason.slice(0, 100) };
  return { status: readiness.ready ? 200 : 503, body: JSON.stringify(body), contentType: 'application/json' };
}

/**
 * The health endpoints for `serveMetrics`' `endpoints`: `/healthz` answers 200 while the process serves its metrics
 * listener; `/readyz` asks `ready` on every probe (a check that throws is `check failed`, its text never shown).
 */
export function healthEndpoints(ready: () => Readiness | Promise<Readiness>): Record<string, () => Promise<EndpointAnswer>> {
  return {
    '/healthz': () => Promise.resolve(answer({ ready: true })),
    '/readyz': async () => {
      try {
        return answer(await ready());
      } catch {
        return answer({ ready: false, reason: 'check failed' });
      }
    },
  };
}
