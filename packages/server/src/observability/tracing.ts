/**
 * OpenTelemetry tracing of requests and database calls, OFF unless an OTLP endpoint is configured
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `SVC_OTLP_ENDPOINT`).
 *
 * `initTracing()` starts the Node SDK once per process with the http, express and pg
 * instrumentations and an OTLP/HTTP (JSON) exporter. The instrumentations patch modules as they
 * are loaded: for the http, express and pg spans call it before the server's modules are imported
 * (first thing of the process). createApp calls it too (idempotent), and adds a span per request
 * named after the contract's route pattern, so that requests are traced even when the modules
 * were loaded first (as in a test process that imports the server).
 */
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';

export interface TracingState {
  readonly enabled: boolean;
  /** Where spans are sent (`.../v1/traces`); undefined when tracing is off. */
  readonly endpoint?: string;
}

interface Started {
  state: TracingState;
  shutdown: () => Promise<void>;
  flush: () => Promise<void>;
}

let started: Started | undefined;
let starting: Promise<Started> | undefined;

/** The traces URL configured by the environment, or undefined when tracing is off. */
export function tracesEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const full = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (full) return full;
  const base = (env.SVC_OTLP_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT)?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** Whether this process traces (initTracing has started the SDK). */
export function tracingEnabled(): boolean {
  return started?.state.enabled === true;
}

/**
 * Starts tracing when an OTLP endpoint is configured; does nothing otherwise. Idempotent: the
 * first call decides for the process, later calls return its state.
 */
export async function initTracing(env: NodeJS.ProcessEnv = process.env): Promise<TracingState> {
  if (started) return started.state;
  const endpoint = tracesEndpoint(env);
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') return { enabled: false };
  starting ??= (async () => {
    const [{ NodeSDK }, { OTLPTraceExporter }, { HttpInstrumentation }, { ExpressInstrumentation }, { PgInstrumentation }] =
      await Promise.all([
        import('@opentelemetry/sdk-node'),
        import('@opentelemetry/exporter-trace-otlp-http'),
        import('@opentelemetry/instrumentation-http'),
        import('@opentelemetry/instrumentation-express'),
        import('@opentelemetry/instrumentation-pg'),
      ]);
    const sdk = new NodeSDK({
      serviceName: env.OTEL_SERVICE_NAME ?? 'svc-api',
      traceExporter: new OTLPTraceExporter({ url: endpoint }),
      instrumentations: [
        new HttpInstrumentation({
          // The exporter's own calls are not traced (they would trace themselves without end).
          ignoreOutgoingRequestHook: (req) => {
            const path = typeof req.path === 'string' ? req.path : '';
            return path.endsWith('/v1/traces');
          },
        }),
        new ExpressInstrumentation(),
        new PgInstrumentation(),
      ],
      // Traces only: metrics are Prometheus' (/metrics), logs go to stdout.
      metricReaders: [],
      logRecordProcessors: [],
    });
    sdk.start();
    const provider = trace.getTracerProvider() as { getDelegate?: () => unknown };
    const delegate = (provider.getDelegate?.() ?? provider) as { forceFlush?: () => Promise<void> };
    return {
      state: { enabled: true, endpoint },
      shutdown: () => sdk.shutdown(),
      flush: async () => {
        await delegate.forceFlush?.();
      },
    };
  })();
  started = await starting;
  return started.state;
}

/** Sends the spans still buffered (tests, and before a planned exit). */
export async function flushTracing(): Promise<void> {
  await started?.flush();
}

/** Stops tracing and sends what is buffered; a later initTracing may start it again. */
export async function shutdownTracing(): Promise<void> {
  const s = started;
  started = undefined;
  starting = undefined;
  await s?.shutdown();
}

const tracer = () => trace.getTracer('svc-api');

/**
 * A span per request, named `METHOD /route/:pattern` once the route is known. When the http
 * instrumentation already opened the server span, that span is renamed and given the route
 * instead of opening a second one. Mounted only while tracing is on.
 */
export function requestSpans(route: (req: Parameters<RequestHandler>[0]) => string): RequestHandler {
  return (req, res, next) => {
    if (!tracingEnabled()) return next();
    const active = trace.getActiveSpan();
    const own: Span | undefined = active
      ? undefined
      : tracer().startSpan(`${req.method}`, {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': req.method, 'url.path': req.path },
        });
    const span = own ?? active;
    res.on('finish', () => {
      const pattern = route(req);
      span?.updateName(`${req.method} ${pattern}`);
      span?.setAttribute('http.route', pattern);
      span?.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span?.setStatus({ code: SpanStatusCode.ERROR });
      own?.end();
    });
    if (!own) return next();
    context.with(trace.setSpan(context.active(), own), () => next());
  };
}
