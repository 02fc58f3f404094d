/**
 * The pages the browser tests open: each entry of `pages/` bundled by esbuild for the browser from the packages'
 * built `dist` (the `default` export condition, as an app's bundler would resolve them; a `node:` import fails the
 * bundle), and served with a one-line HTML page each by a static server on 127.0.0.1 (free port).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** A running page server. */
export interface PageServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The URL of the HTML page of `entry` (`client` → `/client.html`). */
  page(entry: string): string;
  close(): Promise<void>;
}

/** Bundles `entries` (names of files in `pages/`, without `.ts`) and serves them. */
export async function startPageServer(entries: readonly string[]): Promise<PageServer> {
  const result = await build({
    entryPoints: Object.fromEntries(entries.map((entry) => [entry, fileURLToPath(new URL(`./pages/${entry}.ts`, import.meta.url))])),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    outdir: '/bundles',
    logLevel: 'silent',
  });
  const files = new Map(result.outputFiles.map((file) => [file.path.replace(/^\/bundles/, ''), file.text]));
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    const html = /^\/([a-z-]+)\.html$/.exec(path);
    if (html && files.has(`/${html[1]}.js`)) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><meta charset="utf-8"><title>${html[1]}</title><script type="module" src="/${html[1]}.js"></script>`);
      return;
    }
    const script = files.get(path);
    if (script === undefined) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('content-type', 'text/javascript; charset=utf-8');
    res.end(script);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page: (entry) => `${origin}/${entry}.html`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
