// The OTEL_* variables `--otel` honours, read before anything is loaded: defaults, precedence, refusals.
import { expect, test } from 'vitest';
import { otelSettings } from './otel-flag.js';

test('defaults: OTLP/protobuf to http://localhost:4318/v1/traces, parent-based always-on sampling, enabled', () => {
  expect(otelSettings({})).toEqual({
    disabled: false,
    protocol: 'http/protobuf',
    endpoint: 'http://localhost:4318/v1/traces',
    sampler: { name: 'parentbased_always_on', ratio: 1 },
  });
});

test('the traces endpoint and protocol win over the general ones; the general endpoint gets /v1/traces', () => {
  expect(otelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example:4318/' }).endpoint).toBe('https://otel.example:4318/v1/traces');
  const both = otelSettings({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a.example:4318',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b.example:4318/custom',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
  });
  expect(both).toMatchObject({ endpoint: 'http://b.example:4318/custom', protocol: 'http/json' });
});

test('credentials in the endpoint are never shown', () => {
  expect(otelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:secret@otel.example' }).endpoint).toBe('https://otel.example/v1/traces');
});

test('OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn it off', () => {
  expect(otelSettings({ OTEL_SDK_DISABLED: 'TRUE' }).disabled).toBe(true);
  expect(otelSettings({ OTEL_TRACES_EXPORTER: 'none' }).disabled).toBe(true);
  expect(otelSettings({ OTEL_SDK_DISABLED: 'false' }).disabled).toBe(false);
});

test('samplers: the specification names, with a ratio for the ratio-based ones', () => {
  expect(otelSettings({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).sampler).toEqual({
    name: 'traceidratio',
    ratio: 0.25,
  });
  expect(otelSettings({ OTEL_TRACES_SAMPLER: 'always_off' }).sampler.name).toBe('always_off');
});

test('what cannot be honoured is refused with the variable named and the value cut short', () => {
  expect(() => otelSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow('OTEL_EXPORTER_OTLP_PROTOCOL="grpc" is not supported');
  expect(() => otelSettings({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow('OTEL_TRACES_EXPORTER');
  expect(() => otelSettings({ OTEL_TRACES_SAMPLER: 'x'.repeat(10_000) })).toThrow(/OTEL_TRACES_SAMPLER="x{40}" is not supported/);
  expect(() => otelSettings({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow('OTEL_TRACES_SAMPLER_ARG');
  expect(() => otelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT is not a URL');
  expect(() => otelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://otel.example' })).toThrow('http: or https:');
});
