import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret: `whsec_` and 32 bytes, base64url. The whole string is the HMAC key. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Lowercase hex HMAC-SHA256 of `<t>.<raw body>`, keyed with the secret as written. */
export function signPayload(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** `t=<unix>,v1=<hex>[,v1=<hex>]`: one signature per secret, the current one first. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string | Buffer): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${signPayload(s, timestamp, body)}`)].join(',');
}

export type SignatureFailure = 'missing_signature' | 'malformed_signature' | 'stale_timestamp' | 'bad_signature';

/**
 * Checks a `t=,v1=` header against the raw body: the timestamp within `toleranceSeconds` of now in
 * either direction, and any `v1` equal (in constant time) to the HMAC under any of the secrets.
 */
export function verifySignatureHeader(
  raw: Buffer,
  header: string | undefined,
  secrets: readonly string[],
  toleranceSeconds: number,
  nowMs = Date.now(),
): SignatureFailure | undefined {
  if (!header) return 'missing_signature';
  let t: number | undefined;
  const sigs: string[] = [];
  for (const part of header.split(',')) {
    const i = part.indexOf('=');
    if (i < 1) return 'malformed_signature';
    const key = part.slice(0, i).trim();
    const value = part.slice(i + 1).trim();
    if (key === 't') t = /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
    else if (key === 'v1') sigs.push(value);
  }
  if (t === undefined || !Number.isFinite(t) || sigs.length === 0) return 'malformed_signature';
  if (Math.abs(nowMs / 1000 - t) > toleranceSeconds) return 'stale_timestamp';
  for (const secret of secrets) {
    const expected = Buffer.from(signPayload(secret, t, raw), 'hex');
    for (const sig of sigs) {
      if (!/^[0-9a-f]{64}$/.test(sig)) continue;
      if (timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return undefined;
    }
  }
  return 'bad_signature';
}

/** Constant-time equality of two strings (of any lengths). */
export function safeEqual(a: string, b: string): boolean {
  const x = createHmac('sha256', 'svc-compare').update(a).digest();
  const y = createHmac('sha256', 'svc-compare').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}
