/** This package's version, recorded as the instrumentation scope's version. */
export const OTEL_VERSION = '0.1.0';
