import { McpServer, type ServerOptions } from '@wiremcp/server';
import { registerEverythingApps } from './apps.js';
import { registerClientRequestTools } from './client-request-tools.js';
import { registerContentTools } from './content-tools.js';
import { registerInputRequiredFixtures } from './input-required-tools.js';
import { registerListChangeTools } from './list-change-tools.js';
import { ICONS } from './media.js';
import { registerEverythingPrompts } from './prompts.js';
import { registerEverythingResources, WatchedResource } from './resources.js';
import { registerTaskTools } from './tasks-tools.js';
import { registerUtilityTools } from './utility-tools.js';
import { registerEverythingSkills } from './skills.js';

/**
 * The everything server's identity but its version: the version is the package's, read from its package.json by
 * the Node entry (`EVERYTHING_SERVER_INFO` in everything-package.ts); this module stays free of Node APIs so that
 * browsers and other runtimes can bundle it, and they pass the version they know.
 */
export const EVERYTHING_SERVER_IDENTITY = {
  name: 'wiremcp-everything',
  title: 'wiremcp everything (conformance fixture)',
  description: 'Every tool, resource and prompt the MCP conformance suite expects, plus a fixture for every MCP feature.',
  icons: ICONS,
} as const;

const INSTRUCTIONS =
  'A test fixture, not a useful assistant: each tool, resource and prompt exists to exercise one MCP feature ' +
  '(content types, tool errors, structured output, logging, progress, cancellation, sampling, elicitation, roots, ' +
  'input-required results, subscriptions, list changes, completion, pagination). Names starting with test_ follow ' +
  'the official conformance suite.';

/** Options of {@link createEverythingServer}: the server's, plus the version it reports in `serverInfo`. */
export interface EverythingServerOptions extends ServerOptions {
  /** `serverInfo.version`: the package's version (the Node entry fills it in). */
  version: string;
}

/**
 * Builds the everything server: the conformance suite's tools, resources and prompts, and fixtures for every
 * other feature, serving both protocol eras. Each call returns an independent server (its own watched
 * resource and dynamic tool/prompt); `options` are passed to {@link McpServer} (e.g. `pageSize`).
 */
export function createEverythingServer(options: EverythingServerOptions): McpServer {
  const { version, ...serverOptions } = options;
  const server = new McpServer(
    { ...EVERYTHING_SERVER_IDENTITY, version, icons: [...ICONS] },
    { instructions: INSTRUCTIONS, ...serverOptions },
  );
  const watched = new WatchedResource();
  registerContentTools(server);
  registerUtilityTools(server, watched);
  registerListChangeTools(server);
  registerClientRequestTools(server);
  registerEverythingResources(server, watched);
  registerEverythingPrompts(server);
  registerInputRequiredFixtures(server);
  registerTaskTools(server);
  registerEverythingSkills(server);
  registerEverythingApps(server);
  return server;
}
