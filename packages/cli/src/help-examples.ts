/**
 * The examples each command's `--help` ends with: what a user types, for the common cases. Kept apart from the
 * command definitions so that every command gets them the same way; a test checks that none is missing.
 */
import type { Command } from 'commander';

/** Command path (`list`, `new server`) → example lines (a command and, after `#`, what it does). */
export const HELP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  list: [
    'wiremcp list node server.js                          # everything a stdio server offers',
    'wiremcp list --only tools https://mcp.example.com/mcp   # the tools of a remote server',
    'wiremcp list --auth https://mcp.example.com/mcp      # log in with OAuth first',
    'wiremcp list --era legacy --json npx -y @wiremcp/server-everything',
    'wiremcp list --root . --sampling-reply ok npx -y @modelcontextprotocol/server-everything   # tools shown to capable clients',
    'wiremcp list                                         # no target: every server of the configuration found here',
    'wiremcp --config .vscode/mcp.json --input token=abc list   # ${input:token} given on the command line',
  ],
  trace: [
    'wiremcp trace node server.js                         # every message both ways, on stderr',
    'wiremcp trace --era legacy --protocol-version 2024-11-05 node server.js',
    'wiremcp trace http://127.0.0.1:3000/mcp              # HTTP requests, responses and SSE events as they arrive',
    'wiremcp --config mcp.json trace                      # every configured server, each block headed with its name',
    'wiremcp trace --root . node server.js                # the roots/list the server sends, and the answer',
  ],
  call: [
    'wiremcp call -a verb=eat -a tense=past conjugate node server.js',
    'wiremcp call --args \'{"path":"/tmp"}\' --json list_directory http://127.0.0.1:3000/mcp',
    'wiremcp call -e API_KEY=secret search node server.js   # an environment variable for the server',
    "wiremcp call --inherit-env search node server.js      # the server gets this shell's whole environment",
    'wiremcp --config mcp.json call -a verb=eat grammar.conjugate   # server.tool: routed to the configured server',
    'wiremcp call --elicit-answers answers.json trigger-elicitation-request npx -y @modelcontextprotocol/server-everything',
    "wiremcp call --sampling-reply 'It is sunny.' -a prompt=weather trigger-sampling-request node server.js",
    'wiremcp call --sampling-reply @reply.txt summarize node server.js   # the reply read from a file',
    'wiremcp call --root . --root ~/notes get-roots-list node server.js   # the roots the server may use',
    'wiremcp call --no-interactive search node server.js   # on a terminal too: never ask, answer only from flags',
  ],
  read: [
    'wiremcp read grammar://a13/eat node server.js',
    'wiremcp read --json file:///tmp/notes.txt http://127.0.0.1:3000/mcp',
    'wiremcp --config mcp.json read --server files file:///tmp/a.txt   # from the configured server named files',
    'wiremcp read --root . file:///project/README.md node server.js   # a server that reads only inside its roots',
  ],
  prompt: [
    'wiremcp prompt -a verb=eat explain_tense node server.js',
    'wiremcp --config mcp.json prompt -a verb=eat grammar.explain_tense   # server.prompt with a host configuration',
    "wiremcp prompt --sampling-reply 'a short summary' summarize node server.js   # a prompt that asks the model",
  ],
  skills: [
    'wiremcp skills node server.js                        # the skills a server serves, with their files',
    'wiremcp skills --read conjugate-past node server.js  # a SKILL.md, verified against its digest',
    'wiremcp skills --read skill://acme/refunds/SKILL.md --file templates/email.md http://127.0.0.1:3000/mcp',
    'wiremcp skills --get skill://acme/refunds/SKILL.md --json node server.js',
  ],
  complete: [
    'wiremcp complete prompt:explain_tense verb=w node server.js',
    "wiremcp complete --root . 'resource:file://{+path}' path=src/ node server.js   # completions inside the roots",
    "wiremcp complete 'resource:file://{+path}' path=/home/me/ node server.js",
  ],
  proxy: [
    'wiremcp proxy --http 3000 node server.js             # a stdio server on http://127.0.0.1:3000/mcp',
    'wiremcp proxy --auth https://mcp.example.com/mcp     # a remote server as a stdio server, for a host',
    'wiremcp proxy --http 0.0.0.0:3000 --allow-origin https://app.example.com node server.js',
    'OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 wiremcp proxy --otel node server.js --otel   # one trace through both',
  ],
  dev: [
    'wiremcp dev src/server.ts                            # a host runs this as its server command; edits restart the server',
    'wiremcp dev src/server.ts --verbose                  # --verbose is given to the server',
    'wiremcp dev -e API_KEY=secret src/server.js          # a variable for the server',
    'wiremcp dev --http 3000 src/server.ts                # on http://127.0.0.1:3000/mcp; sessions survive restarts',
    'wiremcp inspect --era legacy http://127.0.0.1:3000/mcp   # the inspector on it: new tools and build errors appear live',
  ],
  inspect: [
    'wiremcp inspect node server.js                       # prints http://127.0.0.1:<port>/?token=… : tools, resources, wire view',
    'wiremcp inspect --open --port 6277 http://127.0.0.1:3000/mcp   # a fixed port, opened in the browser',
    'wiremcp inspect --era legacy npx -y @wiremcp/server-everything',
    'wiremcp --config .vscode/mcp.json inspect files           # the configured server named files',
    'wiremcp inspect https://mcp.example.com/mcp          # a server that answers 401: Log in from the page (OAuth runs in the CLI)',
  ],
  host: ['wiremcp host status                                # the servers of the configuration found here, and what failed'],
  'host status': [
    'wiremcp host status                                  # mcp.json, .vscode/mcp.json, … from here up, then Cursor, VS Code, Claude Desktop',
    'wiremcp --config ~/.cursor/mcp.json host status --json   # one row per server, as JSON',
  ],
  'host config': [
    'wiremcp host config                                  # as resolved, secrets hidden, nothing started',
    'wiremcp --config a.json --config b.json host config  # two files merged',
  ],
  conformance: ['wiremcp conformance --server grammar              # in a wiremcp checkout', 'wiremcp conformance --help'],
  new: ['wiremcp new server weather'],
  'new server': ['wiremcp new server weather                         # servers/weather in a wiremcp checkout'],
  pack: [
    'wiremcp pack                                         # the package in this directory',
    'wiremcp pack servers/weather --out release/          # server.json next to package.json, the .mcpb in release/',
    "wiremcp pack --bundle-url 'https://github.com/me/weather/releases/download/v{version}/{file}'",
    'wiremcp pack --check                                 # CI: fail when server.json is stale',
  ],
};

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Every command of `program`, depth first, with its path. */
export function commandsOf(program: Command): Array<{ path: string; command: Command }> {
  const out: Array<{ path: string; command: Command }> = [];
  const visit = (command: Command): void => {
    for (const child of command.commands) {
      out.push({ path: pathOf(child), command: child });
      visit(child);
    }
  };
  visit(program);
  return out;
}

/** Appends the examples to the help of every command that has some. */
export function addHelpExamples(program: Command): void {
  for (const { path, command } of commandsOf(program)) {
    const examples = HELP_EXAMPLES[path];
    if (examples) command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  ${line}`).join('\n')}\n`);
  }
}
