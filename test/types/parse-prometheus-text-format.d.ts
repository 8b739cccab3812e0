/** The shapes parse-prometheus-text-format (CommonJS, no declarations of its own) returns. */
declare module 'parse-prometheus-text-format' {
  export interface PrometheusSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  /** Every metric family of a Prometheus text exposition; throws on a line it cannot read. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
