/**
 * How the CLI answers a server's own requests — sampling, elicitation and roots — so that servers which need them
 * (or hide tools from clients that do not declare them) work from `wiremcp call`:
 *
 * - from flags: `--root DIR` (repeatable), `--elicit-answers FILE`, `--sampling-reply TEXT` or `@FILE`;
 * - interactively, on a terminal (stdin and stderr both TTYs, and not `--no-interactive`): each request is shown and
 *   answered on stderr/stdin (`terminal-prompts.ts`). stdout keeps the command's result only.
 *
 * A kind is declared to the server only when it can be answered: by its flag, or on a terminal. Without either the
 * client declares nothing (as before), and a server that hides tools says "Tool not found".
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CreateMessageResult, ElicitResult, InputHandlers, ListRootsResult } from '@wiremcp/client';
import { formProblems } from './elicit-form.js';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';
import { TerminalPrompts, type PromptStreams } from './terminal-prompts.js';

/** The answer flags of a command. */
export interface AnswerFlags {
  /** `--root`: directories (or URIs) the server may use. */
  readonly root?: readonly string[];
  /** `--elicit-answers`: a JSON file of elicitation answers. */
  readonly elicitAnswers?: string;
  /** `--sampling-reply`: the model's reply, or `@FILE`. */
  readonly samplingReply?: string;
  /** `--no-interactive` sets it false: never prompt, even on a terminal. */
  readonly interactive?: boolean;
}

/** Where prompts go and answers come from, and the directory relative paths start from. */
export interface AnswerIo {
  /** Made only when a terminal may be asked (stderr is a TTY and `--no-interactive` was not given). */
  readonly stdin?: () => PromptStreams['input'];
  readonly stderr: PromptStreams['output'];
  readonly cwd: string;
}

/** One elicitation answer of the file: an action, with the form's content when accepted. */
type FileAnswer = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

function usage(message: string): CliError {
  return new CliError(message, CLI_EXIT_CODES.usage);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A root: a directory (made absolute, checked to exist) or a URI with a scheme, as given. */
export function rootOf(text: string, cwd: string): { uri: string; name: string } {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { uri: text, name: text };
  const path = isAbsolute(text) ? text : resolve(cwd, text);
  let directory = false;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    throw usage(`--root ${JSON.stringify(text)}: no such directory`);
  }
  if (!directory) throw usage(`--root ${JSON.stringify(text)}: not a directory`);
  return { uri: pathToFileURL(path).href, name: path };
}

function readText(path: string, flag: string, cwd: string): string {
  try {
    return readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw usage(`${flag}: cannot read ${JSON.stringify(path)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/**
 * Reads the elicitation answers file: one answer or an array of them, used in order (one per request). An answer is
 * `{"action": "accept", "content": {...}}`, `{"action": "decline"}`, `{"action": "cancel"}`, or a plain object of
 * field values (accepted with that content).
 */
export function parseElicitAnswers(text: string, file: string): FileAnswer[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usage(`--elicit-answers ${file}: not JSON (${(error as Error).message})`);
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw usage(`--elicit-answers ${file}: no answer in the file`);
  return list.map((entry, index) => {
    const at = Array.isArray(value) ? `${file}[${index}]` : file;
    if (!isObject(entry)) throw usage(`--elicit-answers ${at}: an answer is a JSON object`);
    const keys = Object.keys(entry);
    const isAction = typeof entry.action === 'string' && keys.every((key) => key === 'action' || key === 'content');
    if (!isAction) return { action: 'accept', content: entry };
    if (!ACTIONS.has(entry.action as string)) throw usage(`--elicit-answers ${at}: action is accept, decline or cancel`);
    if (entry.action !== 'accept') return { action: entry.action as 'decline' | 'cancel' };
    if (entry.content !== undefined && !isObject(entry.content)) throw usage(`--elicit-answers ${at}: content is a JSON object`);
    return { action: 'accept', ...(entry.content === undefined ? {} : { content: entry.content }) };
  });
}

/** The reply text of `--sampling-reply`: the text itself, or the file's text after `@`. */
function samplingReplyOf(flag: string, cwd: string): string {
  return flag.startsWith('@') ? readText(flag.slice(1), '--sampling-reply', cwd).replace(/\r?\n$/, '') : flag;
}

/** A sampling result carrying `text` as the assistant's reply. */
export function replyResult(text: string): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text }, model: 'wiremcp-cli', stopReason: 'endTurn' } as CreateMessageResult;
}

/**
 * The input handlers for these flags, or `undefined` when nothing can be answered (no flag, no terminal). Flag
 * mistakes (a missing directory, an unreadable or malformed file) are usage errors, found before connecting.
 */
export function answerHandlers(flags: AnswerFlags, io: AnswerIo): InputHandlers | undefined {
  const stdin = flags.interactive !== false && io.stderr.isTTY === true ? io.stdin?.() : undefined;
  const prompts = stdin?.isTTY === true ? new TerminalPrompts({ input: stdin, output: io.stderr }) : undefined;
  const note = (text: string): void => void io.stderr.write(`wiremcp: ${text}\n`);
  const handlers: InputHandlers = {};

  if (flags.root?.length) {
    const roots = flags.root.map((root) => rootOf(root, io.cwd));
    handlers.roots = () => ({ roots }) as ListRootsResult;
  } else if (prompts) {
    let chosen: Promise<ListRootsResult> | undefined;
    // Asked once: the server may ask again (after each change), and the answer does not change meanwhile.
    handlers.roots = () => (chosen ??= prompts.roots(io.cwd).then((texts) => ({ roots: texts.map((text) => rootOf(text, io.cwd)) })));
  }

  if (flags.samplingReply !== undefined) {
    const text = samplingReplyOf(flags.samplingReply, io.cwd);
    handlers.sampling = () => replyResult(text);
  } else if (prompts) {
    handlers.sampling = async (params) => replyResult(await prompts.sampling(params));
  }

  if (flags.elicitAnswers !== undefined) {
    const file = flags.elicitAnswers;
    const answers = parseElicitAnswers(readText(file, '--elicit-answers', io.cwd), file);
    let next = 0;
    handlers.elicitation = async (params): Promise<ElicitResult> => {
      const answer = answers[next];
      if (answer === undefined) {
        note(`the server asked for more elicitations than ${file} answers (${answers.length}): cancelled`);
        return { action: 'cancel' };
      }
      next += 1;
      if ((params as { mode?: unknown }).mode === 'url') {
        // Consent to open a URL is not given from a file: the URL is shown, and the request declined.
        note(`the server asks to open ${JSON.stringify((params as { url?: unknown }).url)}: declined (answer it on a terminal)`);
        return { action: 'decline' };
      }
      if (answer.action !== 'accept') return answer;
      const content = answer.content ?? {};
      const problems = await formProblems(params, content);
      if (problems.length > 0) {
        note(`the answer in ${file} does not fit the server's form (${problems.join('; ')}): cancelled`);
        return { action: 'cancel' };
      }
      return { action: 'accept', content } as ElicitResult;
    };
  } else if (prompts) {
    handlers.elicitation = (params) => prompts.elicitation(params);
  }

  return Object.keys(handlers).length > 0 ? handlers : undefined;
}
