/**
 * The `auth/*` scenarios of the official conformance suite's client leg (OAuth 2.1 flows against the suite's mock
 * authorization servers). Not implemented by this client program yet: every one fails with a clear error, and the
 * expected-failures file lists them.
 */

/** Runs one `auth/*` scenario against `serverUrl`; rejects when the scenario is not supported. */
export function runAuthScenario(scenario: string, serverUrl: string): Promise<void> {
  return Promise.reject(new Error(`auth scenarios are not supported by this client program yet (${scenario} against ${serverUrl})`));
}
