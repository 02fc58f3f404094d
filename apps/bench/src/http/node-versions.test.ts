import { describe, expect, it } from 'vitest';
import { HTTP_ROWS, withAgainstRows } from './http-plan.js';
import { parseNodeList, resolveNode, withNodeRows } from './node-versions.js';

describe('parseNodeList', () => {
  it('reads major versions in order', () => {
    expect(parseNodeList('20,24')).toEqual([20, 24]);
    expect(parseNodeList(' 24 ')).toEqual([24]);
  });

  it('refuses anything else, without echoing it unbounded', () => {
    expect(() => parseNodeList('20,20')).toThrow('--node names 20 twice');
    expect(() => parseNodeList('v20')).toThrow('--node takes major versions such as 20,24; got "v20"');
    expect(() => parseNodeList('20.1')).toThrow('major versions');
    expect(() => parseNodeList('8')).toThrow('major versions');
    expect(() => parseNodeList('')).toThrow('major versions');
    expect(() => parseNodeList('x'.repeat(5000))).toThrow(/got "x{20}"$/);
  });
});

describe('resolveNode', () => {
  it("is this process's binary for this process's major version, without a cache or the network", () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(resolveNode(major, '/nonexistent/never-written.json')).toEqual({
      major,
      version: process.versions.node,
      execPath: process.execPath,
    });
  });
});

describe('withNodeRows', () => {
  const nodes = [
    { major: 20, version: '20.20.2', execPath: '/n20' },
    { major: 24, version: '24.21.0', execPath: '/n24' },
  ];

  it('runs each row on every Node, next to each other, each compared with the baseline of its own Node', () => {
    const rows = withNodeRows(HTTP_ROWS.slice(0, 2), nodes);
    expect(rows.map((r) => [r.id, r.reference, r.node?.execPath])).toEqual([
      ['raw/baseline:node20', 'raw/baseline:node20', '/n20'],
      ['raw/baseline:node24', 'raw/baseline:node24', '/n24'],
      ['raw/wiremcp:node20', 'raw/baseline:node20', '/n20'],
      ['raw/wiremcp:node24', 'raw/baseline:node24', '/n24'],
    ]);
    expect(rows[3]!.label).toBe('raw client → wiremcp (2025-11-25, session) · Node 24');
  });

  it('keeps --against twins paired within each Node version', () => {
    const rows = withNodeRows(withAgainstRows(HTTP_ROWS.slice(0, 2), '/other/wiremcp-http.js', 'commit abc'), nodes);
    const mine = rows.find((r) => r.id === 'raw/wiremcp:node24')!;
    expect(mine.reference).toBe('raw/wiremcp~against:node24');
    expect(rows.find((r) => r.id === mine.reference)?.serverScript).toBe('/other/wiremcp-http.js');
  });
});
