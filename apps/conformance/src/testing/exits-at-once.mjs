// A "server" that fails at start: one line on stderr, exit code 3 (the conformance app must say so, not pass).
process.stderr.write('fatal: cannot read the configuration file\n');
process.exit(3);
