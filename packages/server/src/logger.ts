/** Structured logs: one JSON object per line on stdout, with credentials redacted. */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Whether a line of this level is written (lets callers skip building one). */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
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
  // API keys and operator credentials (services/credentials.ts); the prefix tells which kind leaked.
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
  const line = JSON.stringify(record);
  return SUSPECT.test(line) ? JSON.stringify(redact(JSON.parse(line))) : line;
}

export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const min = LEVELS[level];
  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    process.stdout.write(`${formatLogLine({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields })}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    enabled: (lvl) => LEVELS[lvl] >= min,
  };
}
