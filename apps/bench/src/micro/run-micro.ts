// Runs the micro-benchmarks (framing decode, in-memory jsonrpc round trips, typed tool registration) in this process and prints their
// results as one `RESULT_PREFIX` line, for the CLI's "micro" section. Not a test.
import { RESULT_PREFIX } from '../job.js';
import { runFramingBench } from './framing-bench.js';
import { runJsonRpcBench } from './jsonrpc-bench.js';
import { runTypedToolsBench } from './typed-tools-bench.js';

const framing = await runFramingBench();
const jsonrpc = await runJsonRpcBench();
const typed = await runTypedToolsBench();
process.stdout.write(RESULT_PREFIX + JSON.stringify({ framing, jsonrpc, typed }) + '\n');
