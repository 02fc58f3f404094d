/**
 * Debian packages that tests and scripts need (redis-server, nginx, chromium, prometheus): installed with `apt-get`
 * when missing — we run as root — and said so on `log`. Test files run in parallel processes: one installs, the
 * others wait for it (apt and dpkg take one at a time), behind a lock directory shared by every caller.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True when `name` is an executable in the system's bin directories (where Debian's packages put them). */
export function onSystemPath(name: string): boolean {
  return ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin'].some((dir) => existsSync(join(dir, name)));
}

/**
 * Installs each of `packages` whose command of the same name is missing (`apt-get update`, then `apt-get install -y
 * --no-install-recommends`); returns at once when all are there. Throws, saying what failed and what to install by
 * hand, when apt-get fails or another install holds the lock for more than ten minutes.
 */
export function ensureDebianPackages(packages: readonly string[], log: (line: string) => void = () => {}): void {
  const missing = (): string[] => packages.filter((name) => !onSystemPath(name));
  if (missing().length === 0) return;
  const lock = join(tmpdir(), 'wiremcp-apt-get.lock');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`another install holds ${lock}; remove it if no install is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    const wanted = missing();
    if (wanted.length === 0) return;
    log(`installing ${wanted.join(' and ')} with apt-get (missing)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const wait = ['-o', 'DPkg::Lock::Timeout=300'];
    for (const args of [
      [...wait, 'update'],
      [...wait, 'install', '-y', '--no-install-recommends', ...wanted],
    ]) {
      const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'pipe'], env, encoding: 'utf8' });
      if (result.status !== 0) {
        const why = result.error?.message ?? result.stderr.trim().slice(-400);
        throw new Error(`apt-get ${args.slice(2).join(' ')} failed (${why}); install ${wanted.join(', ')} and run again`);
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
