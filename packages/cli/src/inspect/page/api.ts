/**
 * The page's link to the inspector server: operations as `POST /api/rpc`, events as an NDJSON stream read with
 * `fetch` (so the token travels in a header, never in a URL a log might keep). The token comes from the page's URL
 * and is kept in the tab's session storage.
 */

/** The header the server expects the token in. */
const TOKEN_HEADER = 'x-wiremcp-inspector-token';

function takeToken(): string {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem('wiremcp-inspector-token', fromUrl);
    return fromUrl;
  }
  return sessionStorage.getItem('wiremcp-inspector-token') ?? '';
}

const token = takeToken();

/** A failure the server or the target reported. */
export class ApiError extends Error {
  readonly code: unknown;
  constructor(message: string, code?: unknown) {
    super(message);
    this.code = code;
  }
}

/** Runs operation `op` on the target; rejects with an {@link ApiError}. */
export async function rpc<T = Record<string, unknown>>(op: string, params: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch('/api/rpc', {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
    body: JSON.stringify({ op, params }),
  });
  const body = (await response.json().catch(() => ({}))) as { result?: T; error?: string | { message: string; code?: unknown } };
  if (body.error !== undefined) {
    const error = typeof body.error === 'string' ? { message: body.error } : body.error;
    throw new ApiError(error.message, error.code);
  }
  if (!response.ok) throw new ApiError(`HTTP ${response.status}`);
  return body.result as T;
}

/** Follows the event stream, reconnecting after a drop; `onEvent` gets each event. */
export async function followEvents(onEvent: (event: Record<string, unknown>) => void, onDown: (down: boolean) => void): Promise<never> {
  for (;;) {
    try {
      const response = await fetch('/api/events', { headers: { [TOKEN_HEADER]: token } });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      onDown(false);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line) onEvent(JSON.parse(line) as Record<string, unknown>);
        }
      }
    } catch {
      // The inspector stopped or restarted: try again below.
    }
    onDown(true);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
