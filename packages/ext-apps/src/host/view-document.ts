/**
 * The document a sandboxed view runs: the server's HTML with the view's Content Security Policy as the first thing
 * the parser meets (a `<meta http-equiv>` right after the doctype, which the parser puts in `<head>`), so it governs
 * every script, style and request of the document. A policy the HTML declares itself can only narrow it further.
 */

/** Bytes of HTML a view may have (default of the bridge); more is refused before it reaches a frame. */
export const MAX_VIEW_HTML_BYTES = 5 * 1024 * 1024;

/** `html` with `csp` enforced. */
export function viewDocument(html: string, csp: string): string {
  if (/["<>]/.test(csp)) throw new TypeError('a CSP must not contain quotes or angle brackets');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? `${doctype[0]}${meta}${html.slice(doctype[0].length)}` : `<!DOCTYPE html>${meta}${html}`;
}

/** The iframe `allow` attribute for the permissions a host grants (camera, microphone, geolocation, clipboard-write). */
export function allowAttribute(
  granted: { camera?: unknown; microphone?: unknown; geolocation?: unknown; clipboardWrite?: unknown } | undefined,
): string {
  if (!granted) return '';
  const features: string[] = [];
  if (granted.camera) features.push('camera');
  if (granted.microphone) features.push('microphone');
  if (granted.geolocation) features.push('geolocation');
  if (granted.clipboardWrite) features.push('clipboard-write');
  return features.join('; ');
}
