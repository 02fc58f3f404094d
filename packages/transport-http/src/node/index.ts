// @wiremcp/transport-http/node: the web-standard handler on Node's http and http2 servers.
export { toNodeHandler, type NodeHandler, type NodeHandlerOptions, type FetchHandler, type ContractHandler } from './to-node-handler.js';
export { listen, type ListenOptions, type Listening } from './listen.js';
export type { NodeRequest, NodeResponse } from './node-request.js';
export { nodeFetch, type NodeFetch, type NodeFetchOptions } from './node-fetch.js';
