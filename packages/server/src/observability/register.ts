/**
 * Starts tracing before anything else is loaded, so the http, express and pg instrumentations see
 * those modules load: `node --import tsx --import ./packages/server/src/observability/register.ts
 * packages/cli/bin/svc.mjs serve` (with OTEL_EXPORTER_OTLP_ENDPOINT set; without it this does nothing).
 */
import { initTracing } from './tracing.ts';

await initTracing();
