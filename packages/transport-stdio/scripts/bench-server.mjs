// The server side of round-trip-bench.mjs. BENCH_SERVER=wiremcp (default): a Peer on
// createProcessStdioTransport answering `tools/call` with an echo result. BENCH_SERVER=transport: the
// transport without the engine (a switch on `onmessage`). BENCH_SERVER=raw: the hand-written baseline,
// JSON.parse → switch → JSON.stringify over NDJSON lines, one write per chunk.
import { Peer } from '@wiremcp/jsonrpc';
import { createProcessStdioTransport } from '@wiremcp/transport-stdio';

// Reports this process's CPU time per answered request on exit, to compare server costs at equal load.
let answered = 0;
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  if (answered > 0)
    process.stderr.write(
      `[bench-server ${process.env.BENCH_SERVER ?? 'wiremcp'}] ${((user + system) / answered).toFixed(2)} µs CPU per request (${answered} requests)\n`,
    );
});

const result = (params) => ({ content: [{ type: 'text', text: String(params?.arguments?.text ?? '') }], isError: false });

const kind = process.env.BENCH_SERVER ?? 'wiremcp';
if (kind === 'transport') {
  // The transport alone, with the baseline's switch instead of the engine: isolates the transport's cost.
  const transport = createProcessStdioTransport({ framing: 'ndjson' });
  transport.onmessage = (message) => {
    switch (message.method) {
      case 'tools/call':
        answered++;
        void transport.send({ jsonrpc: '2.0', id: message.id, result: result(message.params) });
        break;
      default:
        void transport.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  };
  await transport.start();
} else if (kind === 'wiremcp') {
  const peer = new Peer();
  peer.setRequestHandler('tools/call', (params) => {
    answered++;
    return result(params);
  });
  await peer.connect(createProcessStdioTransport({ framing: 'ndjson' }));
} else {
  let rest = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    let out = '';
    for (const line of lines) {
      if (line === '') continue;
      const message = JSON.parse(line);
      switch (message.method) {
        case 'tools/call':
          answered++;
          out += JSON.stringify({ jsonrpc: '2.0', id: message.id, result: result(message.params) }) + '\n';
          break;
        default:
          out += JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }) + '\n';
      }
    }
    if (out !== '') process.stdout.write(out);
  });
}
