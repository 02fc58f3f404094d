export { McpMetrics, type McpMetricsOptions, type RejectionReason } from '../mcp-metrics.js';
export {
  PrometheusRegistry,
  Counter,
  Gauge,
  Histogram,
  prometheusName,
  DEFAULT_MAX_SERIES,
  PROMETHEUS_CONTENT_TYPE,
  type Labels,
  type BoundGauge,
  type BoundHistogram,
} from '../prometheus-registry.js';
export { rejectionReason } from '../rejections.js';
export { combineInstrumentation } from '../combine.js';
export { ATTR, MCP_DURATION_BUCKETS, MAX_ATTRIBUTE_LENGTH } from '../semconv.js';
