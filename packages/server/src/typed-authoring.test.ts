// Typed authoring: handler argument types inferred from JSON Schema literals and Standard Schema validators (zod,
// valibot, ArkType), `structuredContent` typed from `outputSchema`, prompt arguments and template variables. The
// type assertions are checked by the root `tsc -p tsconfig.json`; runtime behaviour is in typed-schemas.test.ts.
import { toJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, test } from 'vitest';
import * as z from 'zod';
import type { HandlerContext } from './handler-context.js';
import { McpServer } from './mcp-server.js';
import type { TemplateVariablesOf } from './typed-template.js';
import type { CallToolResult, ToolDefinition } from './types.js';

const server = () => new McpServer({ name: 'typed', version: '1.0.0' });

describe('tools: arguments from a JSON Schema literal', () => {
  test('properties, required, enums, arrays, nested objects, nullable types, additionalProperties', () => {
    server().registerTool(
      {
        name: 'search',
        inputSchema: {
          type: 'object',
          properties: {
            q: { type: 'string' },
            limit: { type: 'integer' },
            sort: { enum: ['name', 'size'] },
            tags: { type: 'array', items: { type: 'string' } },
            range: { type: 'object', properties: { from: { type: 'number' } }, required: ['from'], additionalProperties: false },
            cursor: { type: ['string', 'null'] },
            mode: { const: 'fast' },
            either: { anyOf: [{ type: 'boolean' }, { type: 'number' }] },
          },
          required: ['q'],
          additionalProperties: false,
        },
      },
      (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{
          q: string;
          limit?: number;
          sort?: 'name' | 'size';
          tags?: string[];
          range?: { from: number };
          cursor?: string | null;
          mode?: 'fast';
          either?: boolean | number;
        }>();
        expectTypeOf(ctx).toEqualTypeOf<HandlerContext>();
        return { content: [{ type: 'text', text: args.q }] };
      },
    );
  });

  test('extra keys are unknown unless additionalProperties is false; an object without properties is a record', () => {
    server().registerTool({ name: 'open', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } }, (args) => {
      expectTypeOf(args.a).toEqualTypeOf<string | undefined>();
      expectTypeOf(args.other).toEqualTypeOf<unknown>();
      return { content: [] };
    });
    server().registerTool({ name: 'any', inputSchema: { type: 'object' } }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ [key: string]: unknown }>();
      return { content: [] };
    });
  });

  test('an annotated handler must accept what the schema lets through', () => {
    const s = server();
    // Compatible: the annotation is wider than, or equal to, the inferred type.
    s.registerTool(
      { name: 'ok', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
      (args: { q: string }) => ({ content: [{ type: 'text', text: args.q }] }),
    );
    s.registerTool(
      { name: 'bad', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
      // @ts-expect-error -- `q` is optional in the schema, required in the annotation
      (args: { q: string }) => ({ content: [{ type: 'text', text: args.q }] }),
    );
    s.registerTool(
      { name: 'bad2', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
      // @ts-expect-error -- a number is not a string
      (args: { n: string }) => ({ content: [{ type: 'text', text: args.n }] }),
    );
  });

  test('a schema that is not a literal leaves the handler to say what it takes', () => {
    const definition: ToolDefinition = { name: 'plain', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };
    server().registerTool(definition, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return { content: [] };
    });
    server().registerTool(definition, (args: { q: string }) => ({ content: [{ type: 'text', text: args.q }] }));
    // A widened property schema does not block an annotation either.
    const widened = { type: 'array', items: { enum: ['a', 'b'] } };
    server().registerTool(
      { name: 'w', inputSchema: { type: 'object', properties: { list: widened, q: { type: 'string' } }, required: ['q'] } },
      (args: { q: string; list?: Array<'a' | 'b'> }) => ({ content: [{ type: 'text', text: args.q }] }),
    );
  });
});

describe('tools: structuredContent from outputSchema', () => {
  test('a JSON Schema literal types the structured result; errors need none', () => {
    server().registerTool(
      {
        name: 'forecast',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'], additionalProperties: false },
      },
      ({ city }) =>
        city === '' ? { isError: true, content: [{ type: 'text', text: 'no city' }] } : { structuredContent: { celsius: 21 } },
    );
    server().registerTool(
      {
        name: 'wrong',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
      },
      // @ts-expect-error -- celsius must be a number
      () => ({ structuredContent: { celsius: 'warm' } }),
    );
    server().registerTool(
      { name: 'missing', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: {}, required: [] } },
      // @ts-expect-error -- a successful result of a tool with an outputSchema has structuredContent
      () => ({ content: [] }),
    );
  });

  test('without an outputSchema a handler returns any CallToolResult', () => {
    server().registerTool({ name: 'plain', inputSchema: { type: 'object' } }, (): CallToolResult => ({ content: [] }));
  });
});

describe('tools: Standard Schema validators', () => {
  test('zod 4: the handler gets the output type (defaults applied), structuredContent the output schema input type', () => {
    server().registerTool(
      {
        name: 'zod',
        inputSchema: z.object({ a: z.string(), n: z.number().default(3), when: z.enum(['now', 'later']).optional() }),
        outputSchema: z.object({ total: z.number() }),
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ a: string; n: number; when?: 'now' | 'later' | undefined }>();
        return { content: [], structuredContent: { total: args.n } };
      },
    );
    server().registerTool(
      { name: 'zod-bad', inputSchema: z.object({ a: z.string() }) },
      // @ts-expect-error -- the schema gives a string
      (args: { a: number }) => ({ content: [{ type: 'text', text: String(args.a) }] }),
    );
  });

  test('valibot (wrapped for its JSON Schema, or as it is with a converter) and ArkType', () => {
    const valibotInput = v.object({ name: v.string(), age: v.optional(v.number(), 30) });
    server().registerTool({ name: 'valibot', inputSchema: toStandardJsonSchema(valibotInput) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string; age: number }>();
      return { content: [] };
    });
    const converting = new McpServer(
      { name: 'typed', version: '1.0.0' },
      { toJsonSchema: (schema) => toJsonSchema(schema as v.GenericSchema) },
    );
    converting.registerTool({ name: 'valibot-raw', inputSchema: valibotInput }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string; age: number }>();
      return { content: [] };
    });
    server().registerTool({ name: 'arktype', inputSchema: type({ id: 'string', 'count?': 'number' }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ id: string; count?: number }>();
      return { content: [] };
    });
  });
});

describe('prompts', () => {
  test('a literal arguments list: required ones are strings, the others optional', () => {
    server().registerPrompt({ name: 'p', arguments: [{ name: 'who', required: true }, { name: 'tone' }] }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ who: string; tone?: string }>();
      return { messages: [] };
    });
    server().registerPrompt({ name: 'none' }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, string>>();
      return { messages: [] };
    });
  });

  test('an argsSchema (zod or a JSON Schema literal) types the arguments', () => {
    server().registerPrompt({ name: 'z', argsSchema: z.object({ topic: z.string(), depth: z.coerce.number().optional() }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ topic: string; depth?: number | undefined }>();
      return { messages: [] };
    });
    server().registerPrompt(
      {
        name: 'j',
        argsSchema: { type: 'object', properties: { lang: { enum: ['en', 'fr'] } }, required: ['lang'], additionalProperties: false },
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ lang: 'en' | 'fr' }>();
        return { messages: [] };
      },
    );
  });
});

describe('resource templates', () => {
  test('variables are read off the template text', () => {
    expectTypeOf<TemplateVariablesOf<'demo://{kind}/{+path}{?q,limit}{&tags*}'>>().toEqualTypeOf<{
      kind: string | string[];
      path: string;
      q?: string | string[];
      limit?: string | string[];
      tags?: string[];
    }>();
    expectTypeOf<TemplateVariablesOf<'x://{/segments*}{.ext}{x,y}'>>().toEqualTypeOf<{
      segments: string[];
      ext: string | string[];
      x: string | string[];
      y?: string | string[];
    }>();
    expectTypeOf<TemplateVariablesOf<string>>().toEqualTypeOf<Record<string, string | string[]>>();
    server().registerResourceTemplate({ uriTemplate: 'files://{folder}/{+name}', name: 'file' }, (uri, variables) => {
      expectTypeOf(variables).toEqualTypeOf<{ folder: string | string[]; name: string }>();
      // @ts-expect-error -- no such variable
      void variables.other;
      return { contents: [{ uri, text: variables.name }] };
    });
  });

  test('a variables schema gives the reader its output type', () => {
    server().registerResourceTemplate(
      { uriTemplate: 'items://{id}', name: 'item' },
      (uri, { id }) => {
        expectTypeOf(id).toEqualTypeOf<number>();
        return { contents: [{ uri, text: String(id) }] };
      },
      { variables: z.object({ id: z.coerce.number().int() }) },
    );
  });
});
