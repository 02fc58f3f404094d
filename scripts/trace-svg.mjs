#!/usr/bin/env node
// Draws a trace as a waterfall (SVG): one row per span, indented under its parent, a bar from its start to its end
// on a shared time axis, with its service, name, kind and duration. Reads the spans an OTLP/JSON collector received,
// as `tests/interop/test/otlp-export.test.ts` keeps them (a JSON array of OTLP spans, each with its `service`):
//
//   node scripts/trace-svg.mjs tests/interop/artifacts/proxy-trace.json docs/images/trace-tool-call.svg
//
// No dependency: the picture is plain SVG text, so it renders on GitHub and in any browser.
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  process.stderr.write('usage: node scripts/trace-svg.mjs <spans.json> <out.svg>\n');
  process.exit(2);
}
const spans = JSON.parse(readFileSync(input, 'utf8'));
if (!Array.isArray(spans) || spans.length === 0) {
  process.stderr.write(`${input}: expected a non-empty JSON array of spans\n`);
  process.exit(1);
}

const KINDS = { 1: 'internal', 2: 'server', 3: 'client', 4: 'producer', 5: 'consumer' };
const nanos = (value) => BigInt(String(value));
const start = spans.reduce(
  (min, span) => (nanos(span.startTimeUnixNano) < min ? nanos(span.startTimeUnixNano) : min),
  nanos(spans[0].startTimeUnixNano),
);
const end = spans.reduce((max, span) => (nanos(span.endTimeUnixNano) > max ? nanos(span.endTimeUnixNano) : max), 0n);
const total = Number(end - start) || 1;

// Depth-first from the spans whose parent is not in the trace (the caller's span, outside it): parents above children.
const ids = new Set(spans.map((span) => span.spanId));
const children = new Map();
for (const span of spans) {
  const parent = ids.has(span.parentSpanId) ? span.parentSpanId : '';
  children.set(parent, [...(children.get(parent) ?? []), span]);
}
const rows = [];
const visit = (parent, depth) => {
  const list = (children.get(parent) ?? []).sort((a, b) => (nanos(a.startTimeUnixNano) < nanos(b.startTimeUnixNano) ? -1 : 1));
  for (const span of list) {
    rows.push({ span, depth });
    visit(span.spanId, depth + 1);
  }
};
visit('', 0);

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const ms = (n) => `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} ms`;
const COLORS = { 'wiremcp-proxy': '#4c78a8', default: '#f58518' };
const LABEL = 430;
const BAR = 420;
const ROW = 30;
const TOP = 56;
const width = LABEL + BAR + 100;
const height = TOP + rows.length * ROW + 40;
const lines = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, SFMono-Regular, Menlo, monospace" font-size="13">`,
  `<rect width="100%" height="100%" fill="#ffffff"/>`,
  `<text x="16" y="24" font-size="15" font-weight="bold">trace ${escape(spans[0].traceId)}</text>`,
  `<text x="16" y="44" fill="#555">${rows.length} spans, ${ms(total)} from the first start to the last end</text>`,
];
for (const [index, { span, depth }] of rows.entries()) {
  const y = TOP + index * ROW;
  const offset = Number(nanos(span.startTimeUnixNano) - start);
  const duration = Number(nanos(span.endTimeUnixNano) - nanos(span.startTimeUnixNano));
  const x = LABEL + (offset / total) * BAR;
  const w = Math.max(2, (duration / total) * BAR);
  const color = COLORS[span.service] ?? COLORS.default;
  const label = `${span.service ?? '?'} · ${span.name} (${KINDS[span.kind] ?? 'span'})`;
  lines.push(
    `<rect x="0" y="${y}" width="${width}" height="${ROW}" fill="${index % 2 === 0 ? '#f7f7f7' : '#ffffff'}"/>`,
    `<text x="${16 + depth * 18}" y="${y + 19}">${depth > 0 ? '└ ' : ''}${escape(label)}</text>`,
    `<rect x="${x.toFixed(1)}" y="${y + 7}" width="${w.toFixed(1)}" height="${ROW - 14}" rx="3" fill="${color}"/>`,
    `<text x="${(x + w + 6).toFixed(1)}" y="${y + 19}" fill="#333">${ms(duration)}</text>`,
  );
}
lines.push(
  `<text x="16" y="${height - 14}" fill="#555">a tool call through wiremcp proxy into wiremcp-grammar; the caller's span (its traceparent) is the root's parent</text>`,
  '</svg>',
  '',
);
writeFileSync(output, lines.join('\n'));
process.stderr.write(`${output}: ${rows.length} spans\n`);
