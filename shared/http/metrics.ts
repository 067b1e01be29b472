/**
 * CloudWatch metrics in Embedded Metric Format (EMF): a JSON line on stdout whose `_aws` member tells
 * CloudWatch Logs which of its top-level members are metrics and which are their dimensions. No SDK and no
 * client at Init: Lambda ships stdout to CloudWatch Logs, which extracts the metrics from it.
 *
 * Every metric of a stage lives in one namespace (`METRICS_NAMESPACE`, `cash-register-<stage>` from
 * serverless.yml). Dimensions keep a bounded set of values (a function, a route pattern, an API version,
 * an exception or outcome name), never an id, a name or a path: each combination is a metric of its own.
 *
 * To count an event from any code, call `count` with the metric's name and its dimension:
 *
 *     count('KdOutcome', { outcome: 'ControlUnitUnavailable' });
 *
 * writes one line, a metric `KdOutcome` of 1 with the dimension `outcome` (infra/monitoring.yml alarms on it).
 */

export const NAMESPACE = process.env.METRICS_NAMESPACE || 'cash-register-local';

export type Unit = 'Count' | 'Milliseconds';

/** One set of metrics and the dimension sets it is published under: one entry of `_aws.CloudWatchMetrics`. */
export interface Directive {
  dimensions: readonly (readonly string[])[];
  metrics: Readonly<Record<string, Unit>>;
}

/**
 * The `_aws` member of an EMF line. The dimensions' values and the metrics' values are the line's own
 * top-level members, which the caller writes beside it.
 */
export function emfMetadata(directives: readonly Directive[], timestamp: number = Date.now()): Record<string, unknown> {
  return {
    Timestamp: timestamp,
    CloudWatchMetrics: directives.map(({ dimensions, metrics }) => ({
      Namespace: NAMESPACE,
      Dimensions: dimensions,
      Metrics: Object.entries(metrics).map(([Name, Unit]) => ({ Name, Unit })),
    })),
  };
}

/** Counts one event: a metric of 1 under the given dimensions (one dimension set of all of them). */
export function count(metric: string, dimensions: Readonly<Record<string, string>>): void {
  const line = {
    _aws: emfMetadata([{ dimensions: [Object.keys(dimensions)], metrics: { [metric]: 'Count' } }]),
    ...dimensions,
    [metric]: 1,
  };
  console.log(JSON.stringify(line));
}
