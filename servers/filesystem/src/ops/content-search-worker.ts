/**
 * The matching half of search_file_contents, in a worker thread: a regular expression from a client can take
 * exponential time on some lines, and only a thread can be stopped in the middle of one. The main thread walks and
 * reads files (all confinement stays there) and sends their bytes; this thread answers with the matching lines.
 * It is terminated when the call's time budget runs out or the call ends.
 */
import { parentPort, workerData } from 'node:worker_threads';

/** What the worker is started with. */
export interface MatcherSetup {
  source: string;
  flags: string;
  contextLines: number;
  maxMatchesPerFile: number;
  /** Longer lines are matched on their start only, and shown clipped. */
  maxLineLength: number;
}

/** One file to search. */
export interface MatchRequest {
  id: number;
  data: Uint8Array;
}

/** One matching line. */
export interface LineMatch {
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

/** The answer for one file. */
export interface MatchResponse {
  id: number;
  matches: LineMatch[];
  /** True when the file had more matches than `maxMatchesPerFile`. */
  more: boolean;
}

const SHOWN = 500;

function clip(line: string): string {
  return line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line;
}

if (parentPort) {
  const setup = workerData as MatcherSetup;
  const regex = new RegExp(setup.source, setup.flags);
  const decoder = new TextDecoder('utf-8');
  const port = parentPort;
  port.on('message', (request: MatchRequest) => {
    const text = decoder.decode(request.data);
    const lines = text.split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    const matches: LineMatch[] = [];
    let more = false;
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      const subject = line.length > setup.maxLineLength ? line.slice(0, setup.maxLineLength) : line;
      if (!regex.test(subject)) continue;
      if (matches.length >= setup.maxMatchesPerFile) {
        more = true;
        break;
      }
      const match: LineMatch = { line: i + 1, text: clip(line) };
      if (setup.contextLines > 0) {
        match.before = lines.slice(Math.max(0, i - setup.contextLines), i).map((l) => clip(l.replace(/\r$/, '')));
        match.after = lines.slice(i + 1, i + 1 + setup.contextLines).map((l) => clip(l.replace(/\r$/, '')));
      }
      matches.push(match);
    }
    const response: MatchResponse = { id: request.id, matches, more };
    port.postMessage(response);
  });
}
