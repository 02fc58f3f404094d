// A "server" that starts, reads stdin and never writes a byte (the conformance app must time out and say so).
process.stdin.resume();
