export {
  serveMetrics,
  isLoopbackAddress,
  DEFAULT_METRICS_PORT,
  type ServeMetricsOptions,
  type MetricsListener,
  type EndpointAnswer,
} from './serve-metrics.js';
