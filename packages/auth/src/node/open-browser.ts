/**
 * Opens a URL in the user's browser with the platform's opener, passing the URL as one argument (never through a
 * shell), and never waiting for the browser.
 */
import { spawn } from 'node:child_process';

/** Resolves once the opener was started (or failed to start: the caller has printed the URL anyway). */
export function openBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
