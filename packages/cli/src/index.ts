/**
 * `@wiremcp/cli`: the `wiremcp` command, and its parts for programs that want them — run the command line,
 * connect to a target, bridge a client to a server, pack a server for the registry and as a bundle.
 */
export { runCli, buildProgram, type CliIo } from './program.js';
export { CLI_EXIT_CODES, CliError, type CliExitCode } from './exit-codes.js';
export { parseTarget, describeTarget, type Target, type StdioTarget, type HttpTarget } from './target.js';
export { connectTarget, parseHeaders, type Connection, type ConnectionOptions } from './connect.js';
export { createBridgeServer } from './bridge.js';
export { runProxy, type ProxyServeOptions } from './proxy.js';
export { tracingFetch, traceSink, TracingTransport, type TraceSink } from './trace.js';
export { findConformanceApp, runConformance } from './conformance.js';
export { scaffoldServer } from './new-server.js';
export { packServer, runPack, checkServerJson, type PackOptions, type PackResult } from './pack/pack.js';
