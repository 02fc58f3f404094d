// A stand-in for `npx -y <package>` on a cold cache: `node slow-installer.mjs <cache-dir> <install-ms> <server.js> [args…]`.
// The first start "installs" (takes install-ms, holding a lock directory in cache-dir) and marks the cache as
// installed; later starts run the server at once. A start that finds another install under way records an
// overlap in cache-dir/overlaps — what parallel cold starts would do to a real npx cache.
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [cache, installMs, server, ...args] = process.argv.slice(2);
const installed = join(cache, 'installed');
const lock = join(cache, 'installing');

function run() {
  process.argv = [process.argv[0], server, ...args];
  void import(server);
}

if (existsSync(installed)) run();
else {
  try {
    mkdirSync(lock);
  } catch {
    appendFileSync(join(cache, 'overlaps'), `${process.pid}\n`);
  }
  appendFileSync(join(cache, 'installs'), `${process.pid}\n`);
  setTimeout(() => {
    writeFileSync(installed, '');
    rmSync(lock, { recursive: true, force: true });
    run();
  }, Number(installMs));
}
