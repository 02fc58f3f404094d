// The catalogue half of @wiremcp/host: every server's lists under namespaced names.
export {
  Catalogue,
  templateMatches,
  type CatalogueKind,
  type HostPrompt,
  type HostResource,
  type HostResourceTemplate,
  type HostTool,
  type ServerFilters,
} from './catalogue.js';
export { qualifyNames, type NameRequest } from './qualified-names.js';
export { namePredicate, type NamePredicate } from './name-filter.js';
