// A stdio test server (2025-06-18) that works until it reads a line that is not JSON: it drops that line, as many
// servers do, and from then on answers every request with an error (it has lost its state). It shows whether the
// conformance app keeps such a process for the next cell after a failing one.
import { createInterface } from 'node:readline';

let broken = false;
const write = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const results = {
  initialize: (params) => ({
    protocolVersion: params?.protocolVersion ?? '2025-06-18',
    capabilities: { tools: {} },
    serverInfo: { name: 'breaks-after-garbage', version: '1.0.0' },
  }),
  ping: () => ({}),
  'tools/list': () => ({ tools: [] }),
};
createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    broken = true;
    return;
  }
  if (typeof message !== 'object' || message === null || message.id === undefined || typeof message.method !== 'string') return;
  const result = results[message.method];
  if (broken) write({ id: message.id, error: { code: -32603, message: 'lost state' } });
  else if (result) write({ id: message.id, result: result(message.params) });
  else write({ id: message.id, error: { code: -32601, message: 'Method not found' } });
});
