/**
 * A raw WebSocket session (subprotocol `mcp`, one JSON-RPC message or batch per text frame), on the `ws` library so
 * that the runner controls every frame: anything, valid JSON or not, goes out as one text frame, and every frame the
 * server sends is checked as it is.
 *
 * One connection is one session, as one stdio process is: `initialize` opens a legacy session on it, 2026-07-28
 * requests stand alone. What the server must not do is recorded as a violation, which fails the cell: a binary frame,
 * a text frame that is not one JSON value, a subprotocol other than `mcp`. The connection closing is an `exit` event
 * (code: the WebSocket close code) so that a step waiting for an answer stops instead of running into its timeout.
 */
import WebSocket from 'ws';
import type { TransportId } from '../scenario/scenario-types.js';
import { EndpointSession } from './endpoint-session.js';
import type { RawSession, SendOutcome } from './session.js';

/** The subprotocol MCP over WebSocket speaks. */
export const MCP_SUBPROTOCOL = 'mcp';
// A server may send big results (a large request echoed); stay generous, but bounded.
const MAX_INBOUND_MESSAGE = 64 * 1024 * 1024;

function excerpt(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/** A WebSocket endpoint under test. */
export class WebSocketSession extends EndpointSession implements RawSession {
  readonly transport: TransportId = 'websocket';
  readonly #url: string;
  readonly #socket: WebSocket;
  readonly #open: Promise<boolean>;

  constructor(url: string, note = '') {
    super(note);
    this.#url = url;
    this.#socket = new WebSocket(url, MCP_SUBPROTOCOL, { maxPayload: MAX_INBOUND_MESSAGE, perMessageDeflate: false });
    const socket = this.#socket;
    this.#open = new Promise((resolve) => {
      socket.once('open', () => {
        if (socket.protocol !== MCP_SUBPROTOCOL) {
          this.#violation(`the server accepted the upgrade without the \`mcp\` subprotocol (got ${JSON.stringify(socket.protocol)})`);
          socket.close(1002);
          resolve(false);
          return;
        }
        resolve(true);
      });
      socket.once('unexpected-response', (_request, response) => {
        this.#violation(`the upgrade to ${this.#url} was refused: HTTP ${response.statusCode}`);
        response.resume();
        socket.terminate();
        resolve(false);
      });
      // ws may emit more than one error (a failed handshake, then the close): every one is handled.
      socket.on('error', (error) => {
        if (!this.closing) this.#violation(`the WebSocket connection to ${this.#url} failed: ${error.message}`);
        resolve(false);
      });
      socket.once('close', () => resolve(false));
    });
    socket.on('message', (data, isBinary) => this.#frame(data, isBinary));
    socket.once('close', (code, reason) => {
      const why = reason.toString('utf8').slice(0, 200);
      this.log.push({ kind: 'exit', code, signal: why === '' ? null : why, at: this.log.now() });
    });
  }

  #violation(message: string): void {
    this.log.push({ kind: 'violation', message, at: this.log.now() });
  }

  #frame(data: WebSocket.RawData, isBinary: boolean): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (isBinary) {
      this.#violation(`the server sent a binary frame (${bytes.length} bytes): MCP messages travel in text frames`);
      return;
    }
    // ws has checked the frame is valid UTF-8 (it closes with 1007 otherwise).
    const text = bytes.toString('utf8');
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.#violation(`a text frame holds something that is not a JSON-RPC message: ${excerpt(text)}`);
      return;
    }
    this.log.push({ kind: 'message', message, at: this.log.now() });
  }

  async #sendText(text: string | Uint8Array): Promise<void> {
    if (!(await this.#open) || this.#socket.readyState !== WebSocket.OPEN) return;
    // Sent as a text frame even when the bytes are not valid UTF-8: what the server does then is what a cell checks.
    await new Promise<void>((resolve) => this.#socket.send(text, { binary: false }, () => resolve()));
  }

  async send(message: unknown): Promise<SendOutcome> {
    await this.#sendText(JSON.stringify(message));
    return {};
  }

  async sendPayload(payload: Uint8Array): Promise<SendOutcome> {
    await this.#sendText(payload);
    return {};
  }

  /** Not a WebSocket notion: bytes go in frames. Sent as one text frame. */
  sendRaw(bytes: Uint8Array): Promise<void> {
    return this.#sendText(bytes);
  }

  cancelByTransport(): boolean {
    return false;
  }

  /** The counterpart of closing stdin: a normal close (1000). */
  override async closeInput(): Promise<void> {
    if (await this.#open) this.#socket.close(1000);
  }

  /** Closes the connection (1000), and terminates it when the server does not answer the close within a second. */
  protected override closeOnce(): Promise<void> {
    return new Promise<void>((resolve) => {
      const socket = this.#socket;
      if (socket.readyState === WebSocket.CLOSED) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        socket.terminate();
        resolve();
      }, 1000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(1000);
    });
  }
}
