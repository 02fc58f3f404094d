/**
 * One SSE response the handler writes to (a 2026-07-28 request's stream or listen stream, a legacy POST stream or
 * GET stream, a 2024-11-05 session stream), and the pool that counts them, keeps quiet ones alive with comment
 * lines (one timer for all of them) and drops a connection whose reader has fallen too far behind.
 */
import { encodeSseComment, SSE_CONTENT_TYPE } from '../sse/encode.js';
import { HttpReply, ReplyHeaders } from './adapter-contract.js';

/** The limits a {@link SsePool} enforces. */
export interface SsePoolOptions {
  readonly maxOpenStreams: number;
  readonly maxStreamBufferBytes: number;
  readonly keepAliveIntervalMs: number;
  readonly now?: () => number;
}

const SSE_HEADERS = {
  'content-type': SSE_CONTENT_TYPE,
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

const KEEP_ALIVE = encodeSseComment();

/** One open SSE response. */
export class SseConnection {
  /** The response to return to the client; its body is this stream. */
  readonly response: HttpReply;
  /** Called once when the connection ends: `true` when the client went away (or fell behind), `false` when closed here. */
  onclosed: ((byClient: boolean) => void) | undefined;
  /** When something was last written (for keep-alives). */
  lastWriteAt: number;
  readonly #pool: SsePool;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #open = true;

  constructor(pool: SsePool, headers?: Record<string, string>) {
    this.#pool = pool;
    this.lastWriteAt = pool.now();
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#end(true),
      },
      // Counted in bytes, with no buffer of its own: desiredSize is minus what the reader has not taken yet.
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    this.response = new HttpReply(200, body, new ReplyHeaders(headers === undefined ? SSE_HEADERS : { ...SSE_HEADERS, ...headers }));
  }

  /** True until either side closed it. */
  get open(): boolean {
    return this.#open;
  }

  /**
   * Writes SSE text (whole events). Returns false when the connection is closed, or when the reader fell more than
   * `maxStreamBufferBytes` behind, which closes it (the client may resume from the event store, if there is one).
   */
  write(text: string): boolean {
    if (!this.#open) return false;
    const controller = this.#controller;
    try {
      controller.enqueue(this.#pool.encode(text));
    } catch {
      this.#end(true);
      return false;
    }
    this.lastWriteAt = this.#pool.now();
    if (-(controller.desiredSize ?? 0) > this.#pool.maxBufferBytes) {
      this.#close();
      this.#end(true);
      return false;
    }
    return true;
  }

  /**
   * Ends the response gracefully (what was written is still delivered). Idempotent. While the pool is closing, a
   * last `retry:` field goes first: the client reconnects after it (to another process, behind a load balancer).
   */
  close(): void {
    if (!this.#open) return;
    const retryMs = this.#pool.closingRetryMs;
    if (retryMs !== undefined) {
      try {
        this.#controller.enqueue(this.#pool.encode(`retry: ${retryMs}\n\n`));
      } catch {
        // The reader's side already ended it.
      }
    }
    this.#close();
    this.#end(false);
  }

  #close(): void {
    try {
      this.#controller.close();
    } catch {
      // Already closed or errored by the reader's side.
    }
  }

  #end(byClient: boolean): void {
    if (!this.#open) return;
    this.#open = false;
    this.#pool.release(this);
    const onclosed = this.onclosed;
    this.onclosed = undefined;
    onclosed?.(byClient);
  }
}

/** The open SSE connections of one handler. */
export class SsePool {
  readonly maxBufferBytes: number;
  readonly #options: SsePoolOptions;
  readonly #open = new Set<SseConnection>();
  readonly #encoder = new TextEncoder();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: SsePoolOptions) {
    this.#options = options;
    this.maxBufferBytes = options.maxStreamBufferBytes;
  }

  /** Connections open now. */
  get size(): number {
    return this.#open.size;
  }

  now(): number {
    return (this.#options.now ?? Date.now)();
  }

  encode(text: string): Uint8Array {
    return this.#encoder.encode(text);
  }

  /** True when one more connection may be opened. */
  hasRoom(): boolean {
    return this.#open.size < this.#options.maxOpenStreams;
  }

  /** Opens a connection (the caller checked {@link hasRoom}). */
  open(headers?: Record<string, string>): SseConnection {
    const connection = new SseConnection(this, headers);
    this.#open.add(connection);
    const interval = this.#options.keepAliveIntervalMs;
    if (this.#timer === undefined && interval > 0) {
      this.#timer = setInterval(() => this.#keepAlive(), Math.max(10, Math.floor(interval / 2)));
      (this.#timer as { unref?: () => void }).unref?.();
    }
    return connection;
  }

  /** Called by a connection that ended. */
  release(connection: SseConnection): void {
    this.#open.delete(connection);
    if (this.#open.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /**
   * Set while the handler shuts down: every stream ended from then on gets a last `retry:` field with this value.
   */
  closingRetryMs: number | undefined;

  /** Closes every connection. */
  closeAll(): void {
    for (const connection of [...this.#open]) connection.close();
  }

  #keepAlive(): void {
    const now = this.now();
    const interval = this.#options.keepAliveIntervalMs;
    for (const connection of [...this.#open]) {
      if (now - connection.lastWriteAt >= interval) connection.write(KEEP_ALIVE);
    }
  }
}
