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

/** The everything server's identity. */
export const EVERYTHING_SERVER_INFO = {
  name: 'wiremcp-everything',
  title: 'wiremcp everything (conformance fixture)',
  version: '0.1.0',
  description: 'Every tool, resource and prompt the MCP conformance suite expects, plus a fixture for every MCP feature.',
  icons: ICONS,
} as const;

const INSTRUCTIONS =
  'A test fixture, not a useful assistant: each tool, resource and prompt exists to exercise one MCP feature ' +
  '(content types, tool errors, structured output, logging, progress, cancellation, sampling, elicitation, roots, ' +
  'input-required results, subscriptions, list changes, completion, pagination). Names starting with test_ follow ' +
  'the official conformance suite.';

/**
 * Builds the everything server: the conformance suite's tools, resources and prompts, and fixtures for every
 * other feature, serving both protocol eras. Each call returns an independent server (its own watched
 * resource and dynamic tool/prompt); `options` are passed to {@link McpServer} (e.g. `pageSize`).
 */
export function createEverythingServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer({ ...EVERYTHING_SERVER_INFO, icons: [...ICONS] }, { instructions: INSTRUCTIONS, ...options });
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
