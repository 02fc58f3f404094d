import { describe, expect, test } from 'vitest';
import { clientTimeouts } from './run-official.js';

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
});
