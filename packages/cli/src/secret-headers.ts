/** HTTP headers whose values are credentials (lower case): traces and the inspector's wire view show `[redacted]`. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set(['authorization', 'dpop', 'cookie', 'set-cookie', 'proxy-authorization']);
