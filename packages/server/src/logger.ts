import pino from 'pino';

/**
 * Structured logs: one JSON object per line on stdout, with credentials redacted. pino writes the
 * lines (`time` ISO 8601, `level` by name, `msg`, the base fields, then the call's fields); its
 * `redact` paths withhold the usual credential fields cheaply, and a last hook over the serialised
 * line scrubs credentials by name at any depth and by their shape anywhere (formatLogLine).
 */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Whether a line of this level is written (lets callers skip building one). */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
  /**
   * The `request` line at info, written once per request: the same line `info('request', fields)`
   * writes, built without pino's per-call machinery (its fields are plain strings and numbers, and
   * none is a credential by name; the line is still scrubbed by shape as a whole).
   */
  request(fields: RequestLine): void;
}

/** The fields of the per-request line (http/pipeline.ts). */
export interface RequestLine {
  correlation_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  tenant_id?: string;
  actor?: string;
}

export const REDACTED = '[REDACTED]';

/**
 * Field names whose value is withheld whatever it looks like: some secrets have no shape to
 * recognise them by (an Azure Event Grid secret is bare base64url). Matched against the name
 * lowercased without `-`, `_` and spaces, so `apiKey`, `api_key` and `X-Api-Key` are one name;
 * `key_id` and `keyId` are identifiers and stay.
 */
const SECRET_NAME = /authorization|cookie|token|secret|passw|passphrase|signature|(?:key|credentials?)$/;

/** Credentials recognised by their shape wherever they appear: in a message, a path, an error text. */
const SECRET_VALUES: readonly [RegExp, string][] = [
  // API keys and operator credentials (platform/credentials.ts); the prefix tells which kind leaked.
  [/svc_(live|test|dev|op)_[0-9A-Za-z]+/g, `svc_$1_${REDACTED}`],
  // Webhook signing secrets (webhooks/signing.ts) and Stripe's, which share the prefix.
  [/whsec_[0-9A-Za-z_+/=-]+/g, `whsec_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[^\s",;]+/gi, `$1 ${REDACTED}`],
  // An HMAC in a signature header is not the key, but it lets anyone replay the signed request.
  [/\bv1=[0-9a-f]{64}\b/gi, `v1=${REDACTED}`],
  [/-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g, `${REDACTED} PRIVATE KEY`],
];

/**
 * One test over the serialised line decides whether the walk is needed at all: the request log
 * line is written for every request, and almost none carries anything that looks like the above.
 * It may say yes too often (a message that mentions "basic auth"); the walk then changes nothing.
 */
const SUSPECT =
  /svc_(?:live|test|dev|op)_|whsec_|\b(?:bearer|basic)\s|\bv1=[0-9a-f]{64}|PRIVATE KEY|(?:authorization|cookie|token|secret|passw|passphrase|signature|credential)[^"]*"\s*:|key"\s*:/i;

const isSecretName = (name: string) => SECRET_NAME.test(name.toLowerCase().replace(/[-_\s]/g, ''));

function scrub(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_VALUES) out = out.replace(pattern, replacement);
  return out;
}

/** Walks plain JSON data (the parsed line: no cycles, no class instances, dates already strings). */
function redact(value: unknown): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) {
    // Numbers and booleans cannot carry a credential; keeping them keeps `signature_valid: false`.
    out[scrub(name)] = isSecretName(name) && (typeof v === 'string' || (typeof v === 'object' && v !== null)) ? REDACTED : redact(v);
  }
  return out;
}

/** The line as written: serialised once, and parsed, redacted and serialised again only when suspect. */
export function formatLogLine(record: Record<string, unknown>): string {
  return scrubLine(JSON.stringify(record));
}

/** The redaction of one serialised line (without its newline). */
function scrubLine(line: string): string {
  return SUSPECT.test(line) ? JSON.stringify(redact(JSON.parse(line))) : line;
}

/**
 * Fields withheld by pino itself before the line is built (top level and one level down, where
 * request headers and credential objects sit); the hook below catches every other place.
 */
const REDACT_PATHS = [
  'authorization',
  'cookie',
  'token',
  'secret',
  'password',
  'apiKey',
  'api_key',
  'headers.authorization',
  'headers.Authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  '*.authorization',
  '*.token',
  '*.secret',
  '*.password',
];

/** pino's lines open with level then time; this one's open with time then level, as they always have. */
const HEAD = /^\{"level":("[a-z]+"),"time":("[^"]*")/;

export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const logger = pino(
    {
      level,
      // The base fields go into every call's object after `msg` (see write), so the order of a
      // line is time, level, msg, base fields, call fields.
      base: null,
      messageKey: 'msg',
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: {
        // The serialised line, newline included: redacted by name and shape as a whole.
        streamWrite: (s) => {
          const nl = s.endsWith('\n');
          const out = scrubLine((nl ? s.slice(0, -1) : s).replace(HEAD, '{"time":$2,"level":$1'));
          return nl ? `${out}\n` : out;
        },
      },
    },
    // process.stdout (not a file descriptor): one write per line, through whatever wraps stdout.
    process.stdout,
  );
  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (!logger.isLevelEnabled(lvl)) return;
    logger[lvl]({ msg, ...base, ...fields });
  };
  const enabled = (lvl: Exclude<LogLevel, 'silent'>) => LEVELS[lvl] >= LEVELS[level];
  const infoOn = enabled('info');
  return {
    request: (fields) => {
      if (!infoOn) return;
      const body = JSON.stringify({ msg: 'request', ...base, ...fields });
      process.stdout.write(`${scrubLine(`{"time":"${new Date().toISOString()}","level":"info",${body.slice(1)}`)}\n`);
    },
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    enabled,
  };
}
