/**
 * Metrics kept in memory and written as the Prometheus text exposition format (version 0.0.4): counters, gauges
 * (set, or read from a callback when scraped) and histograms with fixed buckets. Written here rather than taken
 * from a library: the format is small and stable, and `@wiremcp/otel` then needs no runtime dependency for its
 * Prometheus listener (the OpenTelemetry Prometheus exporter needs the whole metrics SDK). Every series set is
 * bounded: past `maxSeries` label sets, a metric folds new ones into one series labelled `_OTHER`.
 */

/** Label values of one series, by label name (names are Prometheus names: `[a-zA-Z_][a-zA-Z0-9_]*`). */
export type Labels = Readonly<Record<string, string>>;

/** Most label sets a metric keeps before folding new ones (default of {@link PrometheusRegistry}). */
export const DEFAULT_MAX_SERIES = 1000;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/** A Prometheus metric or label name from an OpenTelemetry one (`mcp.method.name` → `mcp_method_name`). */
export function prometheusName(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_:]/g, '_');
  return /^[0-9]/.test(replaced) ? `_${replaced}` : replaced;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function labelText(labels: Labels, extra?: string): string {
  const parts = Object.keys(labels)
    .sort()
    .map((key) => `${prometheusName(key)}="${escapeLabel(labels[key]!)}"`);
  if (extra !== undefined) parts.push(extra);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

function seriesKey(labels: Labels): string {
  return JSON.stringify(
    Object.keys(labels)
      .sort()
      .map((key) => [key, labels[key]]),
  );
}

interface HistogramSeries {
  readonly labels: Labels;
  readonly counts: number[];
  sum: number;
  count: number;
}

abstract class Metric<S> {
  readonly #series = new Map<string, S>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' | 'histogram',
    readonly maxSeries: number,
  ) {
    if (!NAME.test(name)) throw new TypeError(`Invalid Prometheus metric name ${JSON.stringify(name)}`);
  }

  protected series(labels: Labels, create: (labels: Labels) => S): S {
    let key = seriesKey(labels);
    let found = this.#series.get(key);
    if (found !== undefined) return found;
    if (this.#series.size >= this.maxSeries) {
      const folded: Record<string, string> = {};
      for (const name of Object.keys(labels)) folded[name] = '_OTHER';
      key = seriesKey(folded);
      found = this.#series.get(key);
      if (found !== undefined) return found;
      labels = folded;
    }
    found = create(labels);
    this.#series.set(key, found);
    return found;
  }

  protected all(): IterableIterator<S> {
    return this.#series.values();
  }

  abstract lines(): string[];

  text(): string {
    return [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`, ...this.lines()].join('\n');
  }
}

/** A monotonic counter. */
export class Counter extends Metric<{ labels: Labels; value: number }> {
  /** Adds `value` (≥ 0) to the series of `labels`. */
  add(value: number, labels: Labels = {}): void {
    if (!(value >= 0)) return;
    this.series(labels, (l) => ({ labels: l, value: 0 })).value += value;
  }
  lines(): string[] {
    return [...this.all()].map((s) => `${this.name}${labelText(s.labels)} ${formatNumber(s.value)}`);
  }
}

/** One series of a gauge, looked up once: moving it costs no label work (see {@link Gauge.bind}). */
export interface BoundGauge {
  /** Moves the series by `delta`. */
  add(delta: number): void;
}

/** A gauge: set or moved by the program, or read from a callback at each scrape. */
export class Gauge extends Metric<{ labels: Labels; value: number }> {
  readonly #callbacks: Array<() => number | undefined> = [];
  /** Moves the series of `labels` by `delta`. */
  add(delta: number, labels: Labels = {}): void {
    this.series(labels, (l) => ({ labels: l, value: 0 })).value += delta;
  }
  /**
   * The series of `labels`, created now if it is new (as a first `add` would create it, folded into `_OTHER` past
   * the bound), for a caller that moves the same series again and again.
   */
  bind(labels: Labels = {}): BoundGauge {
    const series = this.series(labels, (l) => ({ labels: l, value: 0 }));
    return { add: (delta) => void (series.value += delta) };
  }
  /** Sets the series of `labels`. */
  set(value: number, labels: Labels = {}): void {
    this.series(labels, (l) => ({ labels: l, value: 0 })).value = value;
  }
  /** Reads the (unlabelled) value from `read` at each scrape; a throwing or `undefined` read is left out. */
  observe(read: () => number | undefined): void {
    this.#callbacks.push(read);
  }
  lines(): string[] {
    for (const read of this.#callbacks) {
      let value: number | undefined;
      try {
        value = read();
      } catch {
        value = undefined;
      }
      if (value !== undefined) this.set(value);
    }
    return [...this.all()].map((s) => `${this.name}${labelText(s.labels)} ${formatNumber(s.value)}`);
  }
}

/** One series of a histogram, looked up once: recording to it costs no label work (see {@link Histogram.bind}). */
export interface BoundHistogram {
  /** Records one observation in the series. */
  record(value: number): void;
}

/** A histogram with fixed upper bounds (`le`), cumulative as Prometheus expects. */
export class Histogram extends Metric<HistogramSeries> {
  readonly bounds: readonly number[];
  constructor(name: string, help: string, bounds: readonly number[], maxSeries: number) {
    super(name, help, 'histogram', maxSeries);
    this.bounds = [...bounds].sort((a, b) => a - b);
  }
  /** Records one observation in the series of `labels`. */
  record(value: number, labels: Labels = {}): void {
    if (Number.isNaN(value)) return;
    this.#observe(this.#seriesOf(labels), value);
  }
  /**
   * The series of `labels`, created now if it is new (as a first `record` would create it, folded into `_OTHER`
   * past the bound, and then listed even before anything is recorded), for a caller that records to the same
   * series again and again.
   */
  bind(labels: Labels = {}): BoundHistogram {
    const series = this.#seriesOf(labels);
    return { record: (value) => (Number.isNaN(value) ? undefined : this.#observe(series, value)) };
  }
  #seriesOf(labels: Labels): HistogramSeries {
    return this.series(labels, (l) => ({ labels: l, counts: this.bounds.map(() => 0), sum: 0, count: 0 }));
  }
  #observe(series: HistogramSeries, value: number): void {
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) if (value <= bounds[i]!) series.counts[i]!++;
    series.sum += value;
    series.count++;
  }
  lines(): string[] {
    const out: string[] = [];
    for (const s of this.all()) {
      this.bounds.forEach((bound, i) =>
        out.push(`${this.name}_bucket${labelText(s.labels, `le="${formatNumber(bound)}"`)} ${s.counts[i]}`),
      );
      out.push(`${this.name}_bucket${labelText(s.labels, 'le="+Inf"')} ${s.count}`);
      out.push(`${this.name}_sum${labelText(s.labels)} ${formatNumber(s.sum)}`);
      out.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return out;
  }
}

/** The metrics one Prometheus listener exposes; see the module comment. */
export class PrometheusRegistry {
  readonly #metrics = new Map<string, Metric<unknown>>();
  readonly #maxSeries: number;

  constructor(options: { maxSeries?: number } = {}) {
    this.#maxSeries = options.maxSeries ?? DEFAULT_MAX_SERIES;
  }

  /** The counter `name` (created on first use; the same instance after). */
  counter(name: string, help: string): Counter {
    return this.#get(name, () => new Counter(name, help, 'counter', this.#maxSeries), Counter);
  }

  /** The gauge `name`. */
  gauge(name: string, help: string): Gauge {
    return this.#get(name, () => new Gauge(name, help, 'gauge', this.#maxSeries), Gauge);
  }

  /** The histogram `name` with upper bounds `bounds`. */
  histogram(name: string, help: string, bounds: readonly number[]): Histogram {
    return this.#get(name, () => new Histogram(name, help, bounds, this.#maxSeries), Histogram);
  }

  /** Every metric in the text exposition format, ending with a newline. */
  exposition(): string {
    const blocks = [...this.#metrics.values()].map((metric) => metric.text());
    return blocks.length === 0 ? '' : `${blocks.join('\n')}\n`;
  }

  #get<M extends Metric<unknown>>(name: string, create: () => M, kind: abstract new (...args: never[]) => M): M {
    const existing = this.#metrics.get(name);
    if (existing !== undefined) {
      if (!(existing instanceof kind)) throw new TypeError(`Metric ${name} already exists as a ${existing.type}`);
      return existing;
    }
    const metric = create();
    this.#metrics.set(name, metric);
    return metric;
  }
}

/** The content type of {@link PrometheusRegistry.exposition}. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
