import { describe, expect, test } from 'vitest';
import { clientTimeLimitMs } from './client/time-limit.js';
import { clientFailureReports, clientTimeouts } from './client-failures.js';

describe('the client leg under load', () => {
  test("counts the suite's own report of client programs that ran out of time, and nothing else", () => {
    const output = [
      'Running client suite (3 scenarios) in parallel...',
      '',
      'Client exited with code null',
      'Client timed out after 30000ms',
      'Stderr:\nClient timed out after 30000ms (our client quoting it is not the suite)',
      'Scenario timed out after 30000ms',
      'Client timed out after 120000 ms',
    ].join('\n');
    // The quoted line counts too: the count is a diagnosis printed beside the results, never a verdict.
    expect(clientTimeouts(output)).toBe(3);
    expect(clientTimeouts('Running client suite (3 scenarios) in parallel...\nall passed')).toBe(0);
  });

  test('quotes what the suite printed about each failed client program, bounded', () => {
    const output = [
      'Running client suite (2 scenarios) in parallel...',
      'Client exited with code 1',
      'Stderr:',
      'Error: connect ECONNREFUSED 127.0.0.1:4000',
      'Client timed out after 30000ms',
      'tools_call failed',
    ].join('\n');
    expect(clientFailureReports(output)).toBe(
      'Client exited with code 1\nStderr:\nError: connect ECONNREFUSED 127.0.0.1:4000\n---\nClient timed out after 30000ms',
    );
    expect(clientFailureReports('all passed')).toBe('');
    const long = clientFailureReports(`Client exited with code 1\nStderr:\n${'x'.repeat(10_000)}`, 100);
    expect(long).toMatch(/^Client exited with code 1[\s\S]{75}\n… \(\d+ more characters\)$/);
  });

  test("the client program's own limits follow the suite's per-scenario limit, less a margin, never below a floor", () => {
    expect(clientTimeLimitMs({ WIREMCP_CONFORMANCE_TIMEOUT_MS: '120000' })).toBe(115_000);
    // Without the variable (the suite run by hand): the suite's own default of 30 s.
    expect(clientTimeLimitMs({})).toBe(25_000);
    expect(clientTimeLimitMs({ WIREMCP_CONFORMANCE_TIMEOUT_MS: '1000' })).toBe(5_000);
    // Not a whole number of milliseconds: ignored, not NaN.
    expect(clientTimeLimitMs({ WIREMCP_CONFORMANCE_TIMEOUT_MS: '2m' })).toBe(25_000);
  });
});
