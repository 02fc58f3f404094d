/**
 * Notes: resources that tools create, edit and remove, so a session sees both kinds of change notification.
 * Adding or removing a note changes the list (`notifications/resources/list_changed`, sent by `McpServer` when a
 * resource is registered or removed); editing one changes its contents (`notifications/resources/updated`, sent
 * here) and its listing entry (size, lastModified), which is updated in place — the note keeps its place in the
 * list — and the list changes too.
 */
import type { CallToolResult, McpServer, RegisteredResource, ResourceDefinition, TextResourceContents } from '@wiremcp/server';
import { READ_HINTS } from './cache-hints.js';
import type { Audience } from './catalogue.js';
import type { Icons } from './icons.js';
import type { LiveFeed } from './live.js';

/** How many notes may exist at once (so memory stays bounded). */
export const MAX_NOTES = 100;
/** The longest title of a note, in characters. */
export const MAX_TITLE = 200;
/** The longest text of a note, in characters. */
export const MAX_TEXT = 65_536;

interface Note {
  definition: ResourceDefinition;
  text: string;
  registration: RegisteredResource;
}

const NOTE_URI = /^demo:\/\/notes\/([1-9][0-9]{0,8})$/;

/** The URI of note number `n`. */
export function noteUri(n: number): string {
  return `demo://notes/${n}`;
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The notes of one server, and the tools that change them. */
export class Notes {
  readonly #server: McpServer;
  readonly #live: LiveFeed;
  readonly #icons: Icons;
  readonly #notes = new Map<string, Note>();
  #next = 1;

  constructor(server: McpServer, live: LiveFeed, icons: Icons) {
    this.#server = server;
    this.#live = live;
    this.#icons = icons;
  }

  /** The listing entries of the notes that exist now. */
  get definitions(): ResourceDefinition[] {
    return [...this.#notes.values()].map((note) => note.definition);
  }

  /** The contents of a note, or undefined when there is no such note. */
  contents(uri: string): TextResourceContents | undefined {
    const note = this.#notes.get(uri);
    return note && { uri, mimeType: 'text/markdown', text: note.text };
  }

  /** Adds a note; its URI is `demo://notes/<n>`. */
  add(title: string, text: string, audience: Audience[], priority: number): CallToolResult {
    if (this.#notes.size >= MAX_NOTES) return failure(`There are already ${MAX_NOTES} notes; delete one first.`);
    const uri = noteUri(this.#next++);
    this.#put(uri, title, text, audience, priority);
    this.#live.record(`added ${uri} "${title}"`);
    const note = this.#notes.get(uri)!;
    return {
      content: [
        { type: 'text', text: `Added ${uri}.` },
        { type: 'resource_link', ...note.definition },
      ],
    };
  }

  /** Replaces a note's text (and title, when given). */
  edit(uri: string, text: string, title: string | undefined): CallToolResult {
    const note = this.#notes.get(uri);
    if (!note) return failure(this.#unknown(uri));
    const annotations = note.definition.annotations!;
    this.#put(uri, title ?? note.definition.title!, text, annotations.audience!, annotations.priority!);
    this.#server.notifyResourceUpdated(uri);
    this.#live.record(`edited ${uri}`);
    return {
      content: [
        { type: 'text', text: `Edited ${uri}; it now reads:` },
        { type: 'resource', resource: this.contents(uri)! },
      ],
    };
  }

  /** Removes a note; subscribers of its URI are told it changed (a read now finds nothing). */
  delete(uri: string): CallToolResult {
    const note = this.#notes.get(uri);
    if (!note) return failure(this.#unknown(uri));
    this.#notes.delete(uri);
    note.registration.remove();
    this.#server.notifyResourceUpdated(uri);
    this.#live.record(`deleted ${uri}`);
    return { content: [{ type: 'text', text: `Deleted ${uri}.` }] };
  }

  #unknown(uri: string): string {
    const shown = uri.length > 80 ? `${uri.slice(0, 80)}…` : uri;
    return NOTE_URI.test(uri) ? `There is no note ${shown}.` : `${JSON.stringify(shown)} is not a note URI (demo://notes/<n>).`;
  }

  /** Registers a note, or updates its listing entry in place, so that the entry matches its text. */
  #put(uri: string, title: string, text: string, audience: readonly Audience[], priority: number): void {
    const definition: ResourceDefinition = {
      uri,
      name: uri.slice('demo://'.length).replace('/', '-'),
      title,
      description: text.split('\n', 1)[0]!.slice(0, 120),
      mimeType: 'text/markdown',
      size: new TextEncoder().encode(text).length,
      annotations: { audience: [...audience], priority, lastModified: new Date().toISOString() },
      icons: this.#icons.note,
    };
    const existing = this.#notes.get(uri);
    if (existing) {
      existing.registration.update(definition);
      existing.definition = definition;
      existing.text = text;
      return;
    }
    const registration = this.#server.registerResource(definition, (readUri) => ({ contents: [this.contents(readUri)!] }), {
      cache: READ_HINTS.notes,
    });
    this.#notes.set(uri, { definition, text, registration });
  }
}

const AUDIENCE_SCHEMA = { type: 'array', items: { enum: ['user', 'assistant'] }, minItems: 1, uniqueItems: true };
const NOTE_URI_SCHEMA = { type: 'string', maxLength: 200, description: 'The note, e.g. demo://notes/1.' };

/** Registers `add_note`, `edit_note` and `delete_note`. */
export function registerNoteTools(server: McpServer, notes: Notes): void {
  server.registerTool(
    {
      name: 'add_note',
      title: 'Add a note',
      description: 'Creates a markdown note as a new resource (demo://notes/<n>); the resource list changes. Returns a link to it.',
      inputSchema: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1, maxLength: MAX_TITLE },
          text: { type: 'string', maxLength: MAX_TEXT, description: 'Markdown.' },
          audience: { ...AUDIENCE_SCHEMA, description: 'Who the note is for (default: user).' },
          priority: { type: 'number', minimum: 0, maximum: 1, description: 'How important it is, 0 to 1 (default 0.5).' },
        },
        required: ['title', 'text'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args: { title: string; text: string; audience?: Audience[]; priority?: number }) =>
      notes.add(args.title, args.text, args.audience ?? ['user'], args.priority ?? 0.5),
  );

  server.registerTool(
    {
      name: 'edit_note',
      title: 'Edit a note',
      description: 'Replaces the text (and optionally the title) of a note; subscribers are told it was updated. Returns the new contents.',
      inputSchema: {
        type: 'object',
        properties: {
          uri: NOTE_URI_SCHEMA,
          text: { type: 'string', maxLength: MAX_TEXT },
          title: { type: 'string', minLength: 1, maxLength: MAX_TITLE },
        },
        required: ['uri', 'text'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args: { uri: string; text: string; title?: string }) => notes.edit(args.uri, args.text, args.title),
  );

  server.registerTool(
    {
      name: 'delete_note',
      title: 'Delete a note',
      description: 'Removes a note; the resource list changes and subscribers of the note are told it was updated.',
      inputSchema: { type: 'object', properties: { uri: NOTE_URI_SCHEMA }, required: ['uri'], additionalProperties: false },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args: { uri: string }) => notes.delete(args.uri),
  );
}
