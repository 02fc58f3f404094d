'use strict';
// Starts a bundled bin through a V8 code cache. scripts/bundle-bin.mjs --code-cache copies this file next to the
// bundle (program.js, CommonJS, one file) as bin.js, and the committed bin/<name>.js imports it.
//
// Why: most of a server's cold start is V8 compiling the bundle's code, not running it. On Node >= 22.1 Node's own
// compile cache (module.enableCompileCache) does it: the program is loaded with require() with that cache on. Node 20
// has no compile cache for user code, so there this compiles the bundle with vm.Script and V8's own code cache: the
// first start compiles as usual and, once the program has run for a second or exits, writes the cache (the
// top-level code and every function compiled so far); later starts deserialise it instead of parsing. V8 rejects a cache made by another V8 version or with other flags; a
// rejected or unreadable cache is only slower, never wrong, and is written anew.
//
// Where: $WIREMCP_COMPILE_CACHE_DIR, else $XDG_CACHE_HOME/wiremcp/compile-cache, else ~/.cache/wiremcp/compile-cache
// (%LOCALAPPDATA%\wiremcp\compile-cache on Windows). A cache is code this process will run, so it is used only from
// a directory that belongs to this user and that no one else can write to, and only from a file owned by this user
// that no one else can write to; files are written to a temporary name (mode 0600) and renamed into place.
// WIREMCP_COMPILE_CACHE=0 (or Node's NODE_DISABLE_COMPILE_CACHE) turns it off; WIREMCP_COMPILE_CACHE_DEBUG=1 says on
// stderr what happened.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const nodeModule = require('node:module');
const { createRequire, wrap } = nodeModule;

const PROGRAM = path.join(__dirname, 'program.js');
const env = process.env;
const debug = env.WIREMCP_COMPILE_CACHE_DEBUG === '1' ? (line) => process.stderr.write(`compile cache: ${line}\n`) : () => {};

/** FNV-1a, 32 bits, as 8 hex digits: a short stable name part, not a security measure. */
function fnv(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

function cacheDirectory() {
  if (env.WIREMCP_COMPILE_CACHE === '0' || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  if (env.WIREMCP_COMPILE_CACHE_DIR) return env.WIREMCP_COMPILE_CACHE_DIR;
  const base = process.platform === 'win32' ? env.LOCALAPPDATA : env.XDG_CACHE_HOME || (env.HOME && path.join(env.HOME, '.cache'));
  return base ? path.join(base, 'wiremcp', 'compile-cache') : undefined;
}

/** True when `stats` belong to this user and no one else may write (always true where there are no uids). */
function onlyOwnerWrites(stats) {
  if (typeof process.getuid !== 'function') return true;
  return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/** The cache directory, created private; undefined when there is none or when others could write to it. */
function privateDirectory() {
  const dir = cacheDirectory();
  if (dir === undefined) return undefined;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stats = fs.lstatSync(dir);
    if (!stats.isDirectory() || !onlyOwnerWrites(stats)) {
      debug(`not used: ${dir} is not a directory only this user can write to`);
      return undefined;
    }
  } catch (error) {
    debug(`not used: ${error.message}`);
    return undefined;
  }
  return dir;
}

/** The cache file for this program and this V8, in a private directory; undefined when there is none. */
function cacheFile(programStats) {
  const dir = privateDirectory();
  if (dir === undefined) return undefined;
  // V8 also checks its version and flags and the source's length, and rejects a cache that does not match.
  const key = [fnv(PROGRAM), programStats.size, Math.trunc(programStats.mtimeMs), process.versions.v8, process.arch];
  return path.join(dir, `${key.join('-')}.cache`);
}

function readCache(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || !onlyOwnerWrites(stats)) {
      debug(`not used: ${file} is not a file only this user can write to`);
      return undefined;
    }
    const data = Buffer.allocUnsafe(stats.size);
    let read = 0;
    while (read < data.length) {
      const n = fs.readSync(fd, data, read, data.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return data.subarray(0, read);
  } catch (error) {
    if (error.code !== 'ENOENT') debug(`not read: ${error.message}`);
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeCache(script, file) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
    debug(`written ${file}`);
  } catch (error) {
    debug(`not written: ${error.message}`);
    fs.rmSync(temporary, { force: true });
    return;
  }
  // Other caches of this same program (same path: another build, or another V8) are removed, so that rebuilding or
  // upgrading does not pile them up; alternating between two Node versions then rewrites the cache each time.
  const dir = path.dirname(file);
  const prefix = `${path.basename(file).split('-')[0]}-`;
  try {
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith('.cache') && name !== path.basename(file)) {
        fs.rmSync(path.join(dir, name), { force: true });
        debug(`removed ${name}`);
      }
    }
  } catch (error) {
    debug(`not pruned: ${error.message}`);
  }
}

/**
 * Node >= 22.1: Node's own compile cache (module.enableCompileCache) does what runByHand does, for the program loaded
 * with require(), in the same private directory (its entries are keyed by Node's version and the source's hash, and
 * written at exit, or after a second here where flushCompileCache exists).
 */
function runWithNodeCache() {
  const dir = privateDirectory();
  if (dir !== undefined) {
    const { status, message, directory } = nodeModule.enableCompileCache(dir);
    const names = Object.fromEntries(Object.entries(nodeModule.constants.compileCacheStatus).map(([name, value]) => [value, name]));
    debug(`node ${names[status] ?? status}${directory ? ` ${directory}` : ''}${message ? `: ${message}` : ''}`);
    if (typeof nodeModule.flushCompileCache === 'function') setTimeout(() => nodeModule.flushCompileCache(), 1000).unref();
  }
  require(PROGRAM);
}

/** Node 20: the program compiled with vm.Script and V8's code cache, read and written here. */
function runByHand() {
  // The bundle is ASCII (the bundler checks), so latin1 reads it exactly and is the cheapest decoding.
  const programStats = fs.statSync(PROGRAM);
  const source = fs.readFileSync(PROGRAM, 'latin1');
  const file = cacheFile(programStats);
  const cachedData = file === undefined ? undefined : readCache(file);
  // The program has no import() left (the bundler checks): a script compiled here could not load modules that way.
  const script = new vm.Script(wrap(source), { filename: PROGRAM, cachedData });
  if (file !== undefined) {
    if (cachedData !== undefined && !script.cachedDataRejected) debug(`used ${file}`);
    else {
      debug(cachedData === undefined ? `none yet at ${file}` : `rejected ${file}`);
      let written = false;
      const save = () => {
        if (written) return;
        written = true;
        writeCache(script, file);
      };
      setTimeout(save, 1000).unref();
      process.once('exit', save);
    }
  }
  const programModule = { exports: {}, filename: PROGRAM, id: PROGRAM, loaded: false };
  script.runInThisContext().call(programModule.exports, programModule.exports, createRequire(PROGRAM), programModule, PROGRAM, __dirname);
}

// WIREMCP_COMPILE_CACHE=vm keeps the hand-made cache on every Node (to compare the two, or to test it).
if (typeof nodeModule.enableCompileCache === 'function' && env.WIREMCP_COMPILE_CACHE !== 'vm') runWithNodeCache();
else runByHand();
