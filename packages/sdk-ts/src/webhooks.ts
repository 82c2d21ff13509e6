import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from '@svc/contract/wire';
import type { components } from './openapi-types.ts';

/**
 * The CloudEvents 1.0 envelope of a delivery, from the OpenAPI document (the declarations of the
 * SDK do not load the contract; test/sdk.test.ts checks this is the contract's `WebhookEnvelope`).
 */
type WebhookEnvelope = components['schemas']['WebhookEventEnvelope'];

/** Why {@link verify} refused a delivery. */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'no_signatures'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'signature_mismatch'
  | 'malformed_body';

/** Thrown by {@link verify}; `reason` says which check failed. Answer the delivery with a 4xx. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason;
  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

/** Options of {@link verify}. */
export interface VerifyOptions {
  /** Largest accepted difference between the signature timestamp and now, either way. Default 300 s. */
  toleranceSeconds?: number | undefined;
  /** The current time in Unix seconds (tests). */
  now?: number | undefined;
}

const utf8 = new TextEncoder();

function toBytes(value: Uint8Array | string): Uint8Array {
  return typeof value === 'string' ? utf8.encode(value) : value;
}

function hmacHex(secret: string, timestamp: number | string, body: Uint8Array | string): string {
  // A well-reviewed HMAC without node:crypto: `verify` stays synchronous, as every caller uses it,
  // and the entry runs in browsers and edge runtimes, which only have an async Web Crypto.
  const mac = hmac
    .create(sha256, utf8.encode(secret))
    .update(utf8.encode(`${timestamp}.`))
    .update(toBytes(body))
    .digest();
  return bytesToHex(mac);
}

/** Compares two equal-length strings without stopping at the first difference. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Verifies one delivery the way the dispatcher signs it and returns its parsed envelope.
 *
 * - `rawBody` is the request body exactly as received (a string or the bytes), never a re-serialised copy;
 * - `header` is the `x-svc-signature` header: `t=<unix>,v1=<hex>`, with several `v1` during a secret rotation;
 * - `secret` is the subscription's `whsec_...` secret, or several (while you roll your own configuration).
 *
 * The timestamp must lie within `toleranceSeconds` (default 300) of now, in the past AND in the
 * future; any `v1` may match any secret; comparisons are constant-time. Deduplicate by the
 * envelope's `id`: delivery is at least once.
 *
 * @throws {WebhookVerificationError}
 * @example
 * app.post('/hooks/svc', express.raw({ type: 'application/json' }), (req, res) => {
 *   const event = webhooks.verify(req.body, req.get('x-svc-signature'), process.env.SVC_WEBHOOK_SECRET!);
 *   res.sendStatus(204); // acknowledge first, then process event asynchronously
 * });
 */
export function verify(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEnvelope {
  if (!header) throw new WebhookVerificationError('missing_header', 'The x-svc-signature header is missing.');
  const tolerance = options.toleranceSeconds ?? WEBHOOK_SIGNATURE_TOLERANCE_SECONDS;
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const i = item.indexOf('=');
    if (i < 1) throw new WebhookVerificationError('malformed_header', 'The signature header must be `t=<unix>,v1=<hex>[,v1=<hex>]`.');
    const key = item.slice(0, i).trim();
    const value = item.slice(i + 1).trim();
    if (key === 't') timestamp = value;
    else if (key === 'v1') signatures.push(value);
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError('malformed_header', 'The signature header has no valid `t=` timestamp.');
  }
  if (signatures.length === 0) throw new WebhookVerificationError('no_signatures', 'The signature header has no `v1=` signature.');
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const t = Number(timestamp);
  if (now - t > tolerance) throw new WebhookVerificationError('timestamp_too_old', `The signature is older than ${tolerance} s.`);
  if (t - now > tolerance)
    throw new WebhookVerificationError('timestamp_too_new', `The signature is more than ${tolerance} s in the future.`);
  const body = toBytes(rawBody);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  let matched = false;
  for (const s of secrets) {
    const expected = hmacHex(s, timestamp, body);
    for (const sig of signatures) {
      // Every candidate is compared, matched or not, so timing does not tell which one matched.
      if (/^[0-9a-f]{64}$/.test(sig) && constantTimeEqual(expected, sig)) matched = true;
    }
  }
  if (!matched) throw new WebhookVerificationError('signature_mismatch', 'No signature matches the body and secret.');
  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEnvelope;
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The body is not JSON.');
  }
}

/** Options of {@link generateTestHeader}. */
export interface TestHeaderOptions {
  /** The exact body you will pass to {@link verify}. */
  payload: string | Uint8Array;
  /** One secret, or several to produce one `v1` per secret (as during a rotation). */
  secret: string | readonly string[];
  /** Unix seconds; now by default. */
  timestamp?: number | undefined;
  /** Use this `v1` value instead of computing it (to test a mismatch). */
  signature?: string | undefined;
}

/**
 * An `x-svc-signature` header for a payload, as the dispatcher would send it: for testing your
 * webhook handler without a server.
 *
 * @example
 * const payload = JSON.stringify(event);
 * const header = webhooks.generateTestHeader({ payload, secret: 'whsec_test' });
 * webhooks.verify(payload, header, 'whsec_test');
 */
export function generateTestHeader(options: TestHeaderOptions): string {
  const t = options.timestamp ?? Math.floor(Date.now() / 1000);
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  const v1 = options.signature !== undefined ? [options.signature] : secrets.map((s) => hmacHex(s, t, options.payload));
  return [`t=${t}`, ...v1.map((s) => `v1=${s}`)].join(',');
}

/** Webhook helpers: `webhooks.verify(rawBody, header, secret, { toleranceSeconds })` and `webhooks.generateTestHeader(...)`. */
export const webhooks = { verify, generateTestHeader } as const;
