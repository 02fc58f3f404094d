// A "server" that writes a line instead of answering, and then never answers: `stdout` puts a banner on stdout (which
// carries only protocol messages), `stderr` logs to stderr as it should. The conformance app must say what it printed.
const where = process.argv[2] === 'stderr' ? process.stderr : process.stdout;
where.write('Starting the weather server v1.2 on stdio...\n');
process.stdin.resume();
