// The cluster tests' plain MCP-over-HTTP client lives next to the cluster script (the load generator and the
// cluster benchmark use it too).
export * from '../../../scripts/cluster/raw-http.js';
