export {
  createResourcesDemo,
  DEFAULT_PAGE_SIZE,
  DEFAULT_TICK_MS,
  RESOURCES_DEMO_INFO,
  type ResourcesDemo,
  type ResourcesDemoOptions,
} from './resources-demo.js';
export { OPTIONS, parseCliArgs, USAGE, type CliOptions } from './cli-args.js';
export { LIST_CACHING, READ_HINTS } from './cache-hints.js';
export { DATA_DIR, isTextMimeType, loadCatalogue, type Catalogue, type CatalogueFile } from './catalogue.js';
export { ELEMENT_TEMPLATE, elementUri, parseElements, type Element } from './elements.js';
export { FILE_TEMPLATE, fileUri } from './files.js';
export { FOLDER_TEMPLATE, folderUri } from './folders.js';
export { CLOCK_URI, LOG_TEMPLATE, LOG_URI, LiveFeed } from './live.js';
export { MAX_NOTES, noteUri, Notes } from './notes.js';
export { REQUEST_URI } from './request-resource.js';
export { SEARCH_TEMPLATE } from './search.js';
export { DATA_TEMPLATE, STATIC_BINARY_URI, STATIC_TEXT, STATIC_TEXT_URI, WATCHED_URI } from './conformance-names.js';
