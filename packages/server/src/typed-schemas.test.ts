// Standard Schema validators at run time: listed as JSON Schema, validated once by their own `validate` (never
// also by the compiled JSON Schema), their output handed to handlers and sent as structuredContent.
import { toJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema';
import { createSchemaCompiler, type SchemaCompiler, type StandardSchemaV1 } from '@wiremcp/json-schema';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { McpServer } from './mcp-server.js';
import { rawClient, text } from './server.test-util.js';
import type { CallToolResult } from './types.js';

const INFO = { name: 'schemas', version: '1.0.0' };

/** A compiler that counts what it is asked to compile. */
function countingCompiler(): SchemaCompiler & { compiled: object[] } {
  const inner = createSchemaCompiler();
  const compiled: object[] = [];
  return {
    compiled,
    cached: (schema) => inner.cached(schema),
    compile: (schema) => {
      compiled.push(schema);
      return inner.compile(schema);
    },
  };
}

/** `schema` with its `validate` counted. */
function counted<S extends StandardSchemaV1>(schema: S): S & { calls: number } {
  const props = schema['~standard'];
  const wrapper = Object.assign(Object.create(schema) as S, { calls: 0 });
  Object.defineProperty(wrapper, '~standard', {
    value: {
      ...props,
      validate: (value: unknown) => {
        wrapper.calls++;
        return props.validate(value);
      },
    },
  });
  return wrapper;
}

const call = async (client: Awaited<ReturnType<typeof rawClient>>, name: string, args: Record<string, unknown>) =>
  (await client.modern('tools/call', { name, arguments: args })) as CallToolResult;

describe('tools with zod 4 schemas', () => {
  test('listed as the JSON Schema of their input and output sides; the handler gets the parsed value', async () => {
    const compiler = countingCompiler();
    const input = counted(z.object({ city: z.string().min(1).describe('A city'), days: z.number().int().default(3) }));
    const server = new McpServer(INFO, { schemaCompiler: compiler });
    const seen: unknown[] = [];
    server.registerTool(
      { name: 'forecast', inputSchema: input, outputSchema: z.object({ days: z.number(), city: z.string() }) },
      (args) => {
        seen.push(args);
        return { structuredContent: { ...args, extra: 'stripped by zod' } as { days: number; city: string } };
      },
    );
    const client = await rawClient(server);
    const { tools } = await client.modern('tools/list');
    expect(tools[0]!.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1, description: 'A city' }, days: { type: 'integer', default: 3 } },
      required: ['city'],
    });
    expect(tools[0]!.outputSchema).toMatchObject({ type: 'object', required: ['days', 'city'] });
    const result = await call(client, 'forecast', { city: 'Paris' });
    expect(seen).toEqual([{ city: 'Paris', days: 3 }]);
    expect(result.structuredContent).toEqual({ city: 'Paris', days: 3 });
    expect(JSON.parse(text(result))).toEqual({ city: 'Paris', days: 3 });
    // Validated once, by zod: nothing was compiled for this tool, and zod ran once per call.
    await call(client, 'forecast', { city: 'Rome', days: 1 });
    expect(input.calls).toBe(2);
    expect(compiler.compiled).toEqual([]);
  });

  test('bad arguments and bad results are tool errors naming the path; async refinements work', async () => {
    const server = new McpServer(INFO);
    server.registerTool(
      {
        name: 'check',
        inputSchema: z.object({ n: z.number().refine(async (value) => value !== 13, 'unlucky') }),
        outputSchema: z.object({ half: z.number().int() }),
      },
      ({ n }) => ({ structuredContent: { half: n / 2 } }),
    );
    const client = await rawClient(server);
    expect(await call(client, 'check', { n: 4 })).toMatchObject({ structuredContent: { half: 2 } });
    const wrongType = await call(client, 'check', { n: 'four' });
    expect(wrongType.isError).toBe(true);
    expect(text(wrongType)).toMatch(/^Invalid arguments for tool 'check': \/n: /);
    expect(text(await call(client, 'check', { n: 13 }))).toBe("Invalid arguments for tool 'check': /n: unlucky");
    const badOutput = await call(client, 'check', { n: 3 });
    expect(badOutput.isError).toBe(true);
    expect(text(badOutput)).toMatch(/^Tool 'check' returned structuredContent that does not match its outputSchema: \/half: /);
  });

  test('a schema with no JSON Schema form is refused at registration, with the library reason', () => {
    const server = new McpServer(INFO);
    expect(() =>
      server.registerTool(
        { name: 't', inputSchema: z.object({}), outputSchema: z.object({ n: z.string().transform((s) => s.length) }) },
        () => ({ structuredContent: { n: 'x' } }),
      ),
    ).toThrow(/Tool 't': Cannot convert a zod schema to JSON Schema: Transforms cannot be represented/);
  });

  test('update accepts Standard Schemas too', async () => {
    const server = new McpServer(INFO);
    const tool = server.registerTool({ name: 'u', inputSchema: { type: 'object' } }, (args) => ({
      content: [{ type: 'text', text: JSON.stringify(args) }],
    }));
    tool.update({ inputSchema: z.object({ x: z.number().default(1) }) });
    const client = await rawClient(server);
    expect((await client.modern('tools/list')).tools[0]!.inputSchema).toMatchObject({ properties: { x: { type: 'number' } } });
    expect(text(await call(client, 'u', {}))).toBe('{"x":1}');
  });
});

describe('tools with valibot schemas', () => {
  const schema = v.object({ name: v.pipe(v.string(), v.minLength(2)), age: v.optional(v.number(), 30) });

  test('wrapped with toStandardJsonSchema, or as they are with the toJsonSchema option', async () => {
    const wrapped = new McpServer(INFO);
    wrapped.registerTool({ name: 'who', inputSchema: toStandardJsonSchema(schema) }, (args) => ({
      content: [{ type: 'text', text: `${args.name} ${args.age}` }],
    }));
    const converted = new McpServer(INFO, { toJsonSchema: (standard) => toJsonSchema(standard as v.GenericSchema) });
    converted.registerTool({ name: 'who', inputSchema: schema }, (args) => ({
      content: [{ type: 'text', text: `${args.name} ${args.age}` }],
    }));
    for (const server of [wrapped, converted]) {
      const client = await rawClient(server);
      expect((await client.modern('tools/list')).tools[0]!.inputSchema).toMatchObject({
        type: 'object',
        properties: { name: { type: 'string', minLength: 2 }, age: { type: 'number', default: 30 } },
        required: ['name'],
      });
      expect(text(await call(client, 'who', { name: 'Ada' }))).toBe('Ada 30');
      const refused = await call(client, 'who', { name: 'A' });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^Invalid arguments for tool 'who': \/name: /);
    }
  });

  test('without a JSON Schema of its own nor a converter, registration says how to get one', () => {
    expect(() => new McpServer(INFO).registerTool({ name: 'v', inputSchema: schema }, () => ({ content: [] }))).toThrow(
      /no JSON Schema of its own.*toStandardJsonSchema.*toJsonSchema option/,
    );
  });
});

describe('prompts and templates with schemas', () => {
  test('an argsSchema is listed as arguments and parses every prompts/get', async () => {
    const server = new McpServer(INFO);
    server.registerPrompt(
      {
        name: 'explain',
        argsSchema: z.object({ topic: z.string().describe('What to explain'), depth: z.coerce.number().int().max(5).optional() }),
      },
      ({ topic, depth }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `${topic} at depth ${depth ?? 1}` } }] }),
    );
    server.registerPrompt(
      { name: 'json', argsSchema: { type: 'object', properties: { lang: { enum: ['en', 'fr'], title: 'Language' } }, required: ['lang'] } },
      ({ lang }) => ({ messages: [{ role: 'user', content: { type: 'text', text: lang } }] }),
    );
    const client = await rawClient(server);
    expect((await client.modern('prompts/list')).prompts).toEqual([
      { name: 'explain', arguments: [{ name: 'topic', description: 'What to explain', required: true }, { name: 'depth' }] },
      { name: 'json', arguments: [{ name: 'lang', title: 'Language', required: true }] },
    ]);
    const got = await client.modern('prompts/get', { name: 'explain', arguments: { topic: 'tides', depth: '2' } });
    expect(got).toMatchObject({ messages: [{ content: { text: 'tides at depth 2' } }] });
    await expect(client.modern('prompts/get', { name: 'explain', arguments: { topic: 'tides', depth: '9' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid arguments for prompt 'explain': \/depth: /),
    });
    await expect(client.modern('prompts/get', { name: 'json', arguments: { lang: 'de' } })).rejects.toMatchObject({ code: -32602 });
    expect(() => server.registerPrompt({ name: 'both', arguments: [], argsSchema: z.object({}) }, () => ({ messages: [] }))).toThrow(
      /arguments or argsSchema, not both/,
    );
  });

  test('a variables schema parses the variables of every match; refused ones are -32602', async () => {
    const server = new McpServer(INFO);
    server.registerResourceTemplate(
      { uriTemplate: 'items://{id}', name: 'item' },
      (uri, { id }) => ({ contents: [{ uri, text: `item ${id + 1}` }] }),
      { variables: z.object({ id: z.coerce.number().int().positive() }) },
    );
    const client = await rawClient(server);
    expect(await client.modern('resources/read', { uri: 'items://41' })).toMatchObject({ contents: [{ text: 'item 42' }] });
    await expect(client.modern('resources/read', { uri: 'items://x' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid params: the variables of "items:\/\/x" do not fit its template: \/id: /),
    });
  });
});
