export { serveMetrics, isLoopbackAddress, DEFAULT_METRICS_PORT, type ServeMetricsOptions, type MetricsListener } from './serve-metrics.js';
