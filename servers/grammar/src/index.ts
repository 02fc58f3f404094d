export { createGrammarServer, GRAMMAR_SERVER_INFO } from './grammar-server.js';
export { registerGrammarTools } from './tools.js';
export { registerGrammarPrompts, registerGrammarResources, TABLE_URI, VERB_TEMPLATE } from './resources-and-prompts.js';
export * from './table/index.js';
