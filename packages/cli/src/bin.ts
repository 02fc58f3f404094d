// The `wiremcp` bin. `wiremcp --version` is answered before commander and the command modules are loaded: it is
// the command scripts and hosts run most often just to check it is there, and it should cost no more than Node.
import { VERSION } from './version.js';

const argv = process.argv.slice(2);
// The version goes to stdout as a command's answer; this bin is not serving a protocol on this path.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V'))
  process.stdout.write(`${VERSION}\n`); // stdout-ok
else {
  // `proxy` serves under runServerMain, which handles signals and closed pipes itself.
  const guard = (await import('./server-guard.js')).guardProcess({ pipesAndSignals: argv[0] !== 'proxy' });
  const code = await (await import('./program.js')).runCli(argv);
  process.exitCode = guard.exitCode ?? code;
}
