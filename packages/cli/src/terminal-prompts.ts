/**
 * The terminal side of the CLI's answers (`input-answers.ts`): a server's sampling, elicitation and roots requests
 * shown on stderr and answered on stdin, one at a time (requests arriving together wait their turn). stdout is never
 * written: it carries the command's result.
 *
 * A form is asked field by field, in the schema's order, with its title, description, default and choices; a value
 * that does not fit its field is asked again; the whole answer is then checked against the schema (the same
 * validator the servers use) before it is sent. A URL-mode request shows the full URL and its host and never opens
 * anything: the user opens it, then says whether they did.
 */
import type { CreateMessageParams, ElicitParams, ElicitResult } from '@wiremcp/client';
import { formProblems } from './elicit-form.js';

/** The streams of a terminal. */
export interface PromptStreams {
  readonly input: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly output: { write(text: string): unknown; isTTY?: boolean };
}

/** A form field as the elicitation schema (a flat object of primitives and enums) describes it. */
interface Field {
  readonly type?: string;
  readonly title?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly oneOf?: ReadonlyArray<{ const?: unknown; title?: string }>;
  readonly items?: { enum?: readonly unknown[]; anyOf?: ReadonlyArray<{ const?: unknown; title?: string }> };
  readonly minimum?: number;
  readonly maximum?: number;
}

/** What a field accepts: its choices (value and label), if it has any. */
function choicesOf(field: Field): Array<{ value: unknown; label: string }> | undefined {
  const fromConsts = (list: ReadonlyArray<{ const?: unknown; title?: string }>) =>
    list.map((entry) => ({ value: entry.const, label: entry.title ?? String(entry.const) }));
  if (field.enum) return field.enum.map((value) => ({ value, label: String(value) }));
  if (field.oneOf) return fromConsts(field.oneOf);
  if (field.items?.enum) return field.items.enum.map((value) => ({ value, label: String(value) }));
  if (field.items?.anyOf) return fromConsts(field.items.anyOf);
  return undefined;
}

/** Reads one typed answer; `undefined` for an empty line, an Error (shown, then asked again) for a bad one. */
export function parseFieldAnswer(field: Field, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const choices = choicesOf(field);
  const pick = (word: string): unknown => {
    const index = Number(word);
    if (choices && Number.isInteger(index) && index >= 1 && index <= choices.length) return choices[index - 1]!.value;
    const found = choices?.find((choice) => String(choice.value) === word || choice.label === word);
    if (!found) return new Error(`choose one of ${choices!.map((choice, i) => `${i + 1}) ${choice.label}`).join(', ')}`);
    return found.value;
  };
  if (field.type === 'array') {
    const picked = trimmed.split(',').map((word) => pick(word.trim()));
    return picked.find((value) => value instanceof Error) ?? picked;
  }
  if (choices) return pick(trimmed);
  if (field.type === 'boolean') {
    if (/^(y|yes|true)$/i.test(trimmed)) return true;
    if (/^(n|no|false)$/i.test(trimmed)) return false;
    return new Error('answer y or n');
  }
  if (field.type === 'number' || field.type === 'integer') {
    const value = Number(trimmed);
    if (!Number.isFinite(value)) return new Error('a number, please');
    if (field.type === 'integer' && !Number.isInteger(value)) return new Error('a whole number, please');
    if (field.minimum !== undefined && value < field.minimum) return new Error(`at least ${field.minimum}`);
    if (field.maximum !== undefined && value > field.maximum) return new Error(`at most ${field.maximum}`);
    return value;
  }
  return text;
}

/** The text of a sampling message's content, with non-text parts named. */
function contentText(content: unknown): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) => {
      const typed = part as { type?: string; text?: string };
      return typed.type === 'text' ? (typed.text ?? '') : `[${typed.type ?? 'content'}]`;
    })
    .join(' ');
}

/**
 * Lines of the terminal, queued: what is typed ahead waits for the next question. The stream is paused between
 * questions, so that it does not keep the process alive once the command is done.
 */
class LineReader {
  #buffer = '';
  readonly #lines: string[] = [];
  #waiting: ((line: string | undefined) => void) | undefined;
  #ended = false;
  readonly #input: PromptStreams['input'];

  constructor(input: PromptStreams['input']) {
    this.#input = input;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      this.#buffer += chunk;
      const parts = this.#buffer.split(/\r?\n/);
      this.#buffer = parts.pop() ?? '';
      this.#lines.push(...parts);
      this.#deliver();
    });
    input.on('end', () => {
      this.#ended = true;
      this.#deliver();
    });
    input.pause();
  }

  #deliver(): void {
    const waiting = this.#waiting;
    if (waiting === undefined) {
      this.#input.pause();
      return;
    }
    if (this.#lines.length === 0 && !this.#ended) return;
    this.#waiting = undefined;
    this.#input.pause();
    waiting(this.#lines.shift());
  }

  /** The next line; `undefined` at the end of input. */
  next(): Promise<string | undefined> {
    if (this.#lines.length > 0) return Promise.resolve(this.#lines.shift());
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#waiting = resolve;
      this.#input.resume();
    });
  }
}

/** A terminal question: the prompt on the output, the answer from the line reader. */
interface Ask {
  question(prompt: string): Promise<string>;
}

/** Asks on a terminal; see the module comment. */
export class TerminalPrompts {
  readonly #streams: PromptStreams;
  #reader: LineReader | undefined;
  #turn: Promise<unknown> = Promise.resolve();

  constructor(streams: PromptStreams) {
    this.#streams = streams;
  }

  #say(text: string): void {
    this.#streams.output.write(text);
  }

  /** Runs `ask` once the previous question is answered: requests that arrive together are asked one after another. */
  #inTurn<T>(ask: (readline: Ask) => Promise<T>): Promise<T> {
    const reader = (this.#reader ??= new LineReader(this.#streams.input));
    const readline: Ask = {
      question: async (prompt) => {
        this.#say(prompt);
        const line = await reader.next();
        if (line === undefined) throw new Error('no answer: the terminal input ended');
        return line;
      },
    };
    const run = this.#turn.then(() => ask(readline));
    this.#turn = run.catch(() => undefined);
    return run;
  }

  /** The roots to expose: directories or URIs, comma-separated; empty for `cwd`, `-` for none. */
  roots(cwd: string): Promise<string[]> {
    return this.#inTurn(async (readline) => {
      this.#say('\nThe server asks which roots (directories) it may use.\n');
      const answer = (await readline.question(`Roots, comma-separated [${cwd}], - for none: `)).trim();
      if (answer === '-') return [];
      return answer === ''
        ? [cwd]
        : answer
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean);
    });
  }

  /** The reply to a sampling request; rejects when the user declines (the server gets an error). */
  sampling(params: CreateMessageParams): Promise<string> {
    return this.#inTurn(async (readline) => {
      const request = params as { systemPrompt?: string; messages?: Array<{ role?: string; content?: unknown }>; maxTokens?: number };
      this.#say('\nThe server asks for a model reply (sampling).\n');
      if (request.systemPrompt) this.#say(`  system: ${request.systemPrompt}\n`);
      for (const message of request.messages ?? []) this.#say(`  ${message.role ?? '?'}: ${contentText(message.content)}\n`);
      if (request.maxTokens !== undefined) this.#say(`  (at most ${request.maxTokens} tokens)\n`);
      const reply = await readline.question('Reply (empty line declines): ');
      if (reply.trim() === '') throw new Error('the user declined the sampling request');
      return reply;
    });
  }

  /** The answer to an elicitation: a form asked field by field, or consent for a URL. */
  elicitation(params: ElicitParams): Promise<ElicitResult> {
    return this.#inTurn(async (readline) => {
      const request = params as {
        mode?: string;
        message?: string;
        url?: string;
        requestedSchema?: { properties?: Record<string, Field>; required?: string[] };
      };
      this.#say(`\nThe server asks: ${request.message ?? '(no message)'}\n`);
      if (request.mode === 'url') {
        let host = '?';
        try {
          host = new URL(request.url ?? '').host;
        } catch {
          // Shown as given; the host stays unknown.
        }
        this.#say(`  URL: ${request.url ?? '(none)'}\n  host: ${host}\n  (nothing is opened for you: open it yourself if you trust it)\n`);
        const action = await this.#action(readline, 'Opened and done? [a]ccept, [d]ecline, [c]ancel: ');
        return { action } as ElicitResult;
      }
      const action = await this.#action(readline, 'Answer the form? [a]ccept, [d]ecline, [c]ancel: ');
      if (action !== 'accept') return { action } as ElicitResult;
      for (;;) {
        const content = await this.#form(readline, request.requestedSchema ?? {});
        const problems = await formProblems(params, content);
        if (problems.length === 0) return { action: 'accept', content } as ElicitResult;
        this.#say(`That does not fit the form: ${problems.join('; ')}. Once more.\n`);
      }
    });
  }

  async #action(readline: Ask, question: string): Promise<'accept' | 'decline' | 'cancel'> {
    for (;;) {
      const answer = (await readline.question(question)).trim().toLowerCase();
      if (answer === 'a' || answer === 'accept') return 'accept';
      if (answer === 'd' || answer === 'decline') return 'decline';
      if (answer === 'c' || answer === 'cancel') return 'cancel';
    }
  }

  async #form(readline: Ask, schema: { properties?: Record<string, Field>; required?: string[] }): Promise<Record<string, unknown>> {
    const content: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      const required = schema.required?.includes(name) === true;
      const choices = choicesOf(field);
      this.#say(
        `\n  ${field.title ?? name}${field.title ? ` (${name})` : ''}${required ? ' *' : ''}${field.description ? `: ${field.description}` : ''}\n`,
      );
      if (choices)
        this.#say(
          `    ${choices.map((choice, i) => `${i + 1}) ${choice.label}`).join('  ')}${field.type === 'array' ? '  (comma-separated)' : ''}\n`,
        );
      const fallback =
        field.default === undefined ? '' : ` [${Array.isArray(field.default) ? field.default.join(',') : String(field.default)}]`;
      for (;;) {
        const value = parseFieldAnswer(field, await readline.question(`  ${name}${fallback}: `));
        if (value instanceof Error) {
          this.#say(`    ${value.message}\n`);
          continue;
        }
        if (value !== undefined) content[name] = value;
        else if (field.default !== undefined) content[name] = field.default;
        else if (required) {
          this.#say('    required\n');
          continue;
        }
        break;
      }
    }
    return content;
  }
}
