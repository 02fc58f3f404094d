import { packageVersion } from '@wiremcp/process';
import { McpServer, type ServerOptions } from '@wiremcp/server';
import { registerGrammarPrompts, registerGrammarResources } from './resources-and-prompts.js';
import { loadTable, type Table } from './table/index.js';
import { registerGrammarApp } from './app.js';
import { registerGrammarSkills } from './skills.js';
import { registerGrammarTools } from './tools.js';

/** The grammar server's identity. */
export const GRAMMAR_SERVER_INFO = {
  name: 'wiremcp-grammar',
  title: '§A13 English verb conjugation',
  version: packageVersion(import.meta.url, '@wiremcp/server-grammar'),
  description: 'Conjugates the 20 §A13 English verbs in 5 tenses and 3 singular persons, with Spanish translations.',
} as const;

const INSTRUCTIONS =
  'This server answers questions about the §A13 table: 20 English verbs (work, play, walk, talk, listen, watch, study, ' +
  'finish, start, look, want, like, be, have, do, go, come, see, eat, write) in 5 tenses (infinitive, present simple, past ' +
  'simple, past participle, simple future) and 3 singular persons, each with its Spanish translation. Use conjugate for a ' +
  'form, lookup_spanish to translate a form, lookup_irregular_verb for principal parts, and check_subject_verb_agreement ' +
  'to correct a learner. Verbs outside the table are out of scope.';

/**
 * Builds the §A13 grammar server: four tools, the table as resources (whole and per verb, with completion),
 * two prompts, one skill per tense (the Skills extension), and the conjugation-table App (MCP Apps). The table
 * never changes while the server runs, so every cacheable 2026-07-28 result may be cached for an hour by anyone.
 */
export function createGrammarServer(table: Table = loadTable(), options: ServerOptions = {}): McpServer {
  const server = new McpServer(GRAMMAR_SERVER_INFO, {
    instructions: INSTRUCTIONS,
    caching: { default: { ttlMs: 3_600_000, cacheScope: 'public' } },
    ...options,
  });
  registerGrammarTools(server, table);
  registerGrammarResources(server, table);
  registerGrammarPrompts(server, table);
  registerGrammarSkills(server, table, { ttlMs: 3_600_000, cacheScope: 'public' });
  registerGrammarApp(server);
  return server;
}
