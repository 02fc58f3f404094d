// Runs a server module after a delay, in this process: `node start-later.mjs <delay-ms> <server.js> [args…]`.
// It stands for a server that is slow to start (a cold runtime, a busy machine): stdin waits in the pipe meanwhile.
const [delay, server, ...args] = process.argv.slice(2);
setTimeout(() => {
  process.argv = [process.argv[0], server, ...args];
  void import(server);
}, Number(delay));
