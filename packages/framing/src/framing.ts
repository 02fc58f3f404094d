/**
 * How messages are delimited on a byte stream:
 * - `ndjson`: one payload per line, terminated by `\n` (a `\r` before it is stripped on decode).
 *   The MCP stdio default.
 * - `content-length`: LSP-style `Content-Length: <bytes>\r\n\r\n<body>` frames.
 */
export type Framing = 'ndjson' | 'content-length';
