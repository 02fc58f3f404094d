/**
 * The client scenarios of the official conformance suite, each as a host would write it with `@wiremcp/client`
 * over `@wiremcp/transport-http`: connect, list, call. What a scenario checks (headers, `Mcp-Param-*` mirroring,
 * dropping tools with invalid `x-mcp-header`, SSE resumption and its `retry` timing, elicitation defaults,
 * `requestState` echoing) happens inside the library; this file only decides which calls to make.
 */
import { McpClient, type ClientOptions, type InputHandlers } from '@wiremcp/client';
import { SkillsClient } from '@wiremcp/ext-skills';
import type { ProtocolVersion } from '@wiremcp/protocol';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { clientTimeLimitMs } from './time-limit.js';

/** One run of the program. */
export interface ClientScenarioRun {
  readonly scenario: string;
  readonly serverUrl: string;
  /** `MCP_CONFORMANCE_PROTOCOL_VERSION`: 2026-07-28 means the stateless era, anything else a legacy session. */
  readonly protocolVersion: string;
  /** `MCP_CONFORMANCE_CONTEXT`, parsed. */
  readonly context: unknown;
}

/** Input handlers a host would give: a canned model answer, an accepting user, one root. */
const HANDLERS: InputHandlers = {
  sampling: (params) => ({
    role: 'assistant',
    content: { type: 'text', text: `Sampled answer to ${params.messages.length} message(s)` },
    model: 'conformance-model',
    stopReason: 'endTurn',
  }),
  // Accepts without filling anything in: the library fills in the schema's defaults (SEP-1034).
  elicitation: () => ({ action: 'accept', content: {} }),
  roots: () => ({ roots: [{ uri: 'file:///tmp/conformance-root', name: 'conformance root' }] }),
};

function clientFor(run: ClientScenarioRun, options: ClientOptions = {}): McpClient {
  const modern = run.protocolVersion === '2026-07-28';
  return new McpClient(
    { name: 'wiremcp-conformance-client', version: '1.0.0' },
    {
      handlers: HANDLERS,
      era: modern ? 'modern' : 'legacy',
      protocolVersion: run.protocolVersion as ProtocolVersion,
      requestTimeoutMs: clientTimeLimitMs(),
      onError: () => undefined,
      ...options,
    },
  );
}

async function withClient(run: ClientScenarioRun, body: (client: McpClient) => Promise<void>, options?: ClientOptions): Promise<void> {
  const client = clientFor(run, options);
  await client.connect(httpTransportFactory(run.serverUrl));
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

/** The tool calls of `http-custom-headers`: `{toolCalls: [{name, arguments}]}`. */
function toolCallsOf(context: unknown): Array<{ name: string; arguments: Record<string, unknown> }> {
  const calls = (context as { toolCalls?: unknown } | undefined)?.toolCalls;
  if (!Array.isArray(calls)) throw new Error('MCP_CONFORMANCE_CONTEXT has no toolCalls');
  return calls.map((call: { name?: unknown; arguments?: unknown }) => {
    if (typeof call.name !== 'string') throw new Error('a toolCalls entry has no name');
    return { name: call.name, arguments: (call.arguments ?? {}) as Record<string, unknown> };
  });
}

/** Calls every tool the client kept, with arguments from its schema's required properties. */
async function callEveryTool(client: McpClient): Promise<void> {
  for (const tool of await client.listAllTools()) {
    const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: string[] };
    const args: Record<string, unknown> = {};
    for (const name of schema.required ?? []) args[name] = sampleValue(schema.properties?.[name]?.type);
    await client.callTool(tool.name, args).catch(() => undefined);
  }
}

function sampleValue(type: unknown): unknown {
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'object':
      return {};
    case 'array':
      return [];
    default:
      return 'value';
  }
}

/** Runs one scenario; rejects when a step fails. */
export async function runClientScenario(run: ClientScenarioRun): Promise<void> {
  switch (run.scenario) {
    case 'initialize':
    case 'json-schema-ref-no-deref':
      return withClient(run, async (client) => {
        await client.listTools();
      });
    case 'tools_call':
      return withClient(run, async (client) => {
        await client.listTools();
        await client.callTool('add_numbers', { a: 5, b: 3 });
      });
    case 'elicitation-sep1034-client-defaults':
      return withClient(run, async (client) => {
        await client.callTool('test_client_elicitation_defaults', {});
      });
    case 'sse-retry':
      return withClient(run, async (client) => {
        await client.callTool('test_reconnection', {});
      });
    case 'request-metadata':
      return withClient(run, async (client) => {
        await client.listTools();
      });
    case 'http-standard-headers':
      return withClient(run, async (client) => {
        const [tool] = (await client.listTools()).tools;
        if (tool) await client.callTool(tool.name, {});
        const [resource] = (await client.listResources()).resources;
        if (resource) await client.readResource(resource.uri);
        const [prompt] = (await client.listPrompts()).prompts;
        if (prompt) await client.getPrompt(prompt.name, {});
      });
    case 'http-custom-headers':
      return withClient(run, async (client) => {
        await client.listTools();
        for (const call of toolCallsOf(run.context)) await client.callTool(call.name, call.arguments);
      });
    case 'http-invalid-tool-headers':
      return withClient(run, callEveryTool);
    case 'sep-2322-client-request-state':
      return withClient(run, async (client) => {
        const tools = (await client.listAllTools()).map((tool) => tool.name);
        const names =
          tools.length > 0 ? tools : ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type'];
        await Promise.all(names.map((name) => client.callTool(name, {})));
      });
    case 'json-schema-2020-12-preservation':
      return withClient(run, async (client) => {
        const tools = await client.listAllTools();
        const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
        if (!focal) throw new Error('the server lists no json_schema_2020_12_tool');
        await client.callTool('json_schema_echo', { schema: focal.inputSchema });
      });
    case 'sep-2640-client-no-prefetch':
      // A host builds its registry from the listing and fetches nothing until a skill is loaded.
      return withClient(run, async (client) => {
        await new SkillsClient(client).list();
      });
    case 'sep-2640-client-verify-digest':
    case 'sep-2640-client-verify-size':
    case 'sep-2640-client-verify-frontmatter':
      // A host loads the first skill (its SKILL.md, verified), then reads a supporting file it references. The
      // library refuses a tampered SKILL.md, so the supporting file is never read and the step fails.
      return withClient(run, async (client) => {
        const skills = new SkillsClient(client);
        const [skill] = (await skills.list()).skills;
        if (!skill) throw new Error('the server lists no skill');
        await skills.read(skill);
        const [supporting] = Array.isArray(skill.resources) ? skill.resources.filter((file) => file.uri !== skill.uri) : [];
        if (supporting) await skills.read(skill, supporting.uri);
      });
    default:
      // A scenario this program does not know: do what every host does, so its checks can still see the wire.
      return withClient(run, async (client) => {
        await client.listTools();
      });
  }
}
