import { createPublicKey, createVerify, type JsonWebKey, randomBytes, verify as verifySignature, X509Certificate } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { classifyInboundType, STRIPE_EVENT_KINDS } from '@svc/contract';
import type { WebhookConfig } from '../config.ts';
import { safeEqual, verifySignatureHeader } from '../signing.ts';

/** Why a request was refused; each is counted and answered 401 (authentication) or 400 (the body). */
export type RejectReason =
  | 'missing_signature'
  | 'malformed_signature'
  | 'stale_timestamp'
  | 'bad_signature'
  | 'bad_certificate'
  | 'bad_token'
  | 'unknown_tenant'
  | 'unknown_source'
  | 'not_configured'
  | 'malformed_body'
  | 'too_large'
  | 'unknown_provider';

/** What every refusal of a request that has not proved who sent it is told. */
export const NOT_ACCEPTED = 'The message is not accepted for this tenant.';

/** Refusals of a request the sender has not (yet) authenticated; the others concern a verified body. */
const AFTER_AUTHENTICATION: ReadonlySet<RejectReason> = new Set(['malformed_body', 'too_large', 'unknown_provider']);

export class Rejection extends Error {
  /**
   * `beforeAuthentication` marks a body refused before its signature could be checked (an SNS
   * message is its own signed envelope): the sender has proved nothing yet either.
   */
  constructor(
    readonly reason: RejectReason,
    message: string,
    readonly beforeAuthentication = false,
  ) {
    super(message);
  }
  /**
   * Whether the request was refused before it proved who sent it. All of those get one answer
   * (401, issue `not_accepted`): an unknown tenant, a provider the tenant has not configured, a
   * source it does not accept and a bad or missing signature are told apart only in the metrics
   * and the log, so no request can probe which tenants exist or what they configured.
   */
  get unauthenticated(): boolean {
    return this.beforeAuthentication || !AFTER_AUTHENTICATION.has(this.reason);
  }
  get publicReason(): string {
    return this.unauthenticated ? 'not_accepted' : this.reason;
  }
  get publicMessage(): string {
    return this.unauthenticated ? NOT_ACCEPTED : this.message;
  }
  get status(): 400 | 401 {
    return this.unauthenticated ? 401 : 400;
  }
}

/**
 * Checked in place of a tenant's secret when it has none (unknown tenant, provider not configured),
 * so that such a request costs the same HMAC as one to a configured tenant; it matches nothing.
 */
const STAND_IN_SECRET = `whsec_${randomBytes(32).toString('base64url')}`;

/** One event to store: provider, the provider's id of it, its canonical kind, the payload. */
export interface Accepted {
  externalId: string;
  type: string | undefined;
  kind: string;
  payload: unknown;
  /** A reply other than the default `{ received: true }` (Event Grid's validation handshake). */
  reply?: unknown;
}

export interface InboundRequest {
  raw: Buffer;
  header(name: string): string | undefined;
  tenantId: string | undefined;
  /** Secrets of the tenant for this provider: current first, the previous one during an overlap. */
  secrets: string[];
  /** Sources the tenant accepts (SNS topic ARNs, Pub/Sub service-account emails); empty refuses all. */
  sources: readonly string[];
  config: WebhookConfig;
  now: number;
}

const SIGNATURE_MESSAGES: Record<string, string> = {
  missing_signature: 'The signature header is missing.',
  malformed_signature: 'The signature header must be `t=<unix>,v1=<hex>`.',
  stale_timestamp: 'The signature timestamp is outside the accepted window.',
  bad_signature: 'No signature matches the body.',
};

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new Rejection('malformed_body', 'The body is not valid JSON.');
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

function checkHmac(req: InboundRequest, headerName: string): void {
  const configured = req.secrets.length > 0;
  const secrets = configured ? req.secrets : [STAND_IN_SECRET];
  const failure = verifySignatureHeader(req.raw, req.header(headerName), secrets, req.config.inboundToleranceSeconds, req.now);
  if (!configured) throw new Rejection('not_configured', 'No inbound secret is set for this tenant and provider.');
  if (failure) throw new Rejection(failure, SIGNATURE_MESSAGES[failure] ?? 'The signature does not verify.');
}

function checkFresh(req: InboundRequest, time: string | undefined, what: string): void {
  const t = time ? Date.parse(time) : Number.NaN;
  if (!Number.isFinite(t)) throw new Rejection('malformed_body', `${what} is missing or not a timestamp.`);
  if (Math.abs(req.now - t) > req.config.inboundToleranceSeconds * 1000) {
    throw new Rejection('stale_timestamp', `${what} is outside the accepted window.`);
  }
}

/** `POST /inbound/{tenantId}`: `svc-signature` over the raw body; `{ id, type, ... }` classified by the registry. */
export function verifySvc(req: InboundRequest): Accepted {
  checkHmac(req, 'svc-signature');
  const body = parseJson(req.raw);
  if (!isRecord(body) || !str(body.id)) throw new Rejection('malformed_body', 'The body must be a JSON object with a string `id`.');
  const type = str(body.type);
  return { externalId: body.id as string, type, kind: classifyInboundType(type), payload: body };
}

/** `POST /stripe`: the `Stripe-Signature` scheme (`t=,v1=`, HMAC-SHA256, 5-minute window), the secret from configuration. */
export function verifyStripe(req: InboundRequest): Accepted & { tenantId: string | undefined } {
  if (!req.config.stripeSecret) throw new Rejection('not_configured', 'Stripe webhooks are not configured.');
  checkHmac({ ...req, secrets: [req.config.stripeSecret] }, 'stripe-signature');
  const body = parseJson(req.raw);
  if (!isRecord(body) || !str(body.id) || !str(body.type)) throw new Rejection('malformed_body', 'Not a Stripe event.');
  const object = isRecord(body.data) && isRecord(body.data.object) ? body.data.object : {};
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  return {
    externalId: body.id as string,
    type: body.type as string,
    kind: classifyInboundType(body.type as string, STRIPE_EVENT_KINDS),
    payload: body,
    tenantId: str(metadata.tenant_id),
  };
}

/** The string an SNS message's signature covers, per message type. */
function snsStringToSign(m: Record<string, unknown>): string {
  const keys =
    m.Type === 'Notification'
      ? ['Message', 'MessageId', ...(m.Subject !== undefined ? ['Subject'] : []), 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return keys.map((k) => `${k}\n${String(m[k] ?? '')}\n`).join('');
}

const SNS_CERT_URL = /^https:\/\/sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\/[A-Za-z0-9._/-]+\.pem$/;

/**
 * `POST /cloud/aws-sns/{tenantId}`: a signed SNS message. The signature is checked against the
 * certificates in configuration; the message's SigningCertURL is only checked for shape and never
 * fetched, and neither is a SubscribeURL: a confirmation is stored for the tenant to act on.
 */
export function verifyAwsSns(req: InboundRequest): Accepted {
  // The message is its own signed envelope: a body refused here has proved nothing about its sender.
  let m: unknown;
  try {
    m = parseJson(req.raw);
  } catch {
    throw new Rejection('malformed_body', 'The body is not valid JSON.', true);
  }
  if (!isRecord(m)) throw new Rejection('malformed_body', 'Not an SNS message.', true);
  const type = str(m.Type);
  if (!type || !['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'].includes(type) || !str(m.MessageId)) {
    throw new Rejection('malformed_body', 'Not an SNS message.', true);
  }
  if (!str(m.Signature)) throw new Rejection('missing_signature', 'The SNS message is not signed.');
  if (req.config.snsCertificates.length === 0) throw new Rejection('not_configured', 'No SNS signing certificates are configured.');
  const certUrl = str(m.SigningCertURL) ?? str(m.SigningCertUrl);
  if (!certUrl || !SNS_CERT_URL.test(certUrl)) throw new Rejection('bad_certificate', 'SigningCertURL is not an SNS certificate address.');
  const algorithm = m.SignatureVersion === '2' ? 'RSA-SHA256' : m.SignatureVersion === '1' ? 'RSA-SHA1' : undefined;
  if (!algorithm) throw new Rejection('malformed_signature', 'SignatureVersion must be 1 or 2.');
  const signature = Buffer.from(m.Signature as string, 'base64');
  const text = snsStringToSign(m);
  const now = new Date(req.now);
  const ok = req.config.snsCertificates.some((pem) => {
    const cert = new X509Certificate(pem);
    if (new Date(cert.validFrom) > now || new Date(cert.validTo) < now) return false;
    return createVerify(algorithm).update(text, 'utf8').verify(cert.publicKey, signature);
  });
  if (!ok) throw new Rejection('bad_signature', 'The SNS signature does not verify against the configured certificates.');
  checkFresh(req, str(m.Timestamp), 'Timestamp');
  // AWS signs every customer's messages with the same certificates: the signature proves the
  // message came from SNS, and only the topic says it is one this tenant subscribed this endpoint to.
  const topic = str(m.TopicArn);
  if (!topic || !req.sources.includes(topic)) throw new Rejection('unknown_source', NOT_ACCEPTED);
  let inner: unknown = m.Message;
  try {
    inner = JSON.parse(String(m.Message));
  } catch {}
  const innerType = isRecord(inner) ? (str(inner.type) ?? str(inner['detail-type'])) : undefined;
  return {
    externalId: m.MessageId as string,
    type: type === 'Notification' ? innerType : type,
    kind: type === 'Notification' ? classifyInboundType(innerType) : 'subscription_confirmation',
    payload: m,
  };
}

/**
 * `POST /cloud/azure-event-grid/{tenantId}`: the tenant's shared key in `aeg-sas-key`, compared in
 * constant time; the subscription validation handshake answers with the validation code.
 */
export function verifyAzureEventGrid(req: InboundRequest): Accepted[] {
  const key = req.header('aeg-sas-key');
  if (!key) throw new Rejection('missing_signature', 'The aeg-sas-key header is missing.');
  const configured = req.secrets.length > 0;
  const matched = (configured ? req.secrets : [STAND_IN_SECRET]).some((s) => safeEqual(s, key));
  if (!configured) throw new Rejection('not_configured', 'No inbound secret is set for this tenant and provider.');
  if (!matched) throw new Rejection('bad_signature', 'The shared key does not match.');
  const body = parseJson(req.raw);
  const events = Array.isArray(body) ? body : [body];
  if (events.length === 0 || events.length > 5000 || !events.every(isRecord)) {
    throw new Rejection('malformed_body', 'The body must be an Event Grid event or an array of them.');
  }
  return (events as Record<string, unknown>[]).map((ev) => {
    const id = str(ev.id);
    const type = str(ev.eventType) ?? str(ev.type);
    if (!id || !type) throw new Rejection('malformed_body', 'Every event needs `id` and `eventType`.');
    checkFresh(req, str(ev.eventTime) ?? str(ev.time), 'eventTime');
    if (type === 'Microsoft.EventGrid.SubscriptionValidationEvent') {
      const data = isRecord(ev.data) ? ev.data : {};
      const code = str(data.validationCode);
      if (!code) throw new Rejection('malformed_body', 'The validation event has no validationCode.');
      return { externalId: id, type, kind: 'subscription_validation', payload: ev, reply: { validationResponse: code } };
    }
    const data = isRecord(ev.data) ? ev.data : {};
    const innerType = str(data.type);
    return { externalId: id, type, kind: classifyInboundType(innerType ?? type), payload: ev };
  });
}

function b64urlJson(part: string): Record<string, unknown> {
  try {
    const v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    if (isRecord(v)) return v;
  } catch {}
  throw new Rejection('bad_token', 'The bearer token is not a JWT.');
}

/**
 * `POST /cloud/gcp-pubsub/{tenantId}`: the push request's OIDC token: RS256 against the configured
 * JWKS, an accepted issuer, the tenant's audience, not expired (nor issued in the future).
 */
export function verifyGcpPubSub(req: InboundRequest): Accepted {
  const jwks = req.config.gcpJwks;
  if (!jwks) throw new Rejection('not_configured', 'No JWKS is configured for Pub/Sub push tokens.');
  const auth = req.header('authorization');
  const token = auth && /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
  if (!token) throw new Rejection('missing_signature', 'A bearer OIDC token is required.');
  const parts = token.split('.');
  if (parts.length !== 3) throw new Rejection('bad_token', 'The bearer token is not a JWT.');
  const [h, p, s] = parts as [string, string, string];
  const header = b64urlJson(h);
  const claims = b64urlJson(p);
  if (header.alg !== 'RS256') throw new Rejection('bad_token', 'Only RS256 tokens are accepted.');
  const jwk = jwks.keys.find((k) => k.kid === header.kid && (k.kty === 'RSA' || k.kty === undefined));
  if (!jwk) throw new Rejection('bad_token', 'The token was signed by a key that is not in the configured JWKS.');
  const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  if (!verifySignature('RSA-SHA256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))) {
    throw new Rejection('bad_signature', 'The token signature does not verify.');
  }
  const nowS = req.now / 1000;
  const leeway = 60;
  if (typeof claims.exp !== 'number' || claims.exp + leeway < nowS) throw new Rejection('stale_timestamp', 'The token has expired.');
  if (typeof claims.iat === 'number' && claims.iat - leeway > nowS)
    throw new Rejection('stale_timestamp', 'The token is issued in the future.');
  if (typeof claims.iss !== 'string' || !req.config.gcpIssuers.includes(claims.iss))
    throw new Rejection('bad_token', 'The token issuer is not accepted.');
  const audience = req.config.gcpAudience.replaceAll('{tenantId}', req.tenantId ?? '');
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(audience)) throw new Rejection('bad_token', 'The token audience is not this endpoint.');
  // Google signs the tokens of every customer's service accounts with the same keys, and anyone can
  // mint one for any audience: only the verified service account says this tenant's push sent it.
  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : undefined;
  if (!email || claims.email_verified !== true || !req.sources.includes(email)) throw new Rejection('unknown_source', NOT_ACCEPTED);
  const body = parseJson(req.raw);
  const message = isRecord(body) && isRecord(body.message) ? body.message : undefined;
  const messageId = message && (str(message.messageId) ?? str(message.message_id));
  if (!message || !messageId) throw new Rejection('malformed_body', 'Not a Pub/Sub push message.');
  const attributes = isRecord(message.attributes) ? message.attributes : {};
  let data: unknown;
  try {
    data = message.data ? JSON.parse(Buffer.from(String(message.data), 'base64').toString('utf8')) : undefined;
  } catch {}
  const type = str(attributes.type) ?? (isRecord(data) ? str(data.type) : undefined);
  return {
    externalId: messageId,
    type,
    kind: classifyInboundType(type),
    payload: { ...(body as Record<string, unknown>), decodedData: data ?? null },
  };
}

/**
 * `POST /cloud/cloudflare-logpush/{tenantId}`: a batch of NDJSON log lines (gzip allowed), signed
 * with the tenant's secret in `x-logpush-signature` (`t=,v1=` over the raw, possibly compressed,
 * bytes). A batch is identified by its content, so a retried batch is stored once.
 */
export function verifyCloudflareLogpush(req: InboundRequest, gzip: boolean, digest: string): Accepted {
  checkHmac(req, 'x-logpush-signature');
  // Decompressed only once the signature holds, and bounded, so an unsigned request costs nothing.
  let decoded = req.raw;
  if (gzip) {
    try {
      decoded = gunzipSync(req.raw, { maxOutputLength: 16 * 1024 * 1024 });
    } catch {
      throw new Rejection('malformed_body', 'The gzip body could not be read.');
    }
  }
  const lines = decoded
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0);
  if (lines.length === 0) throw new Rejection('malformed_body', 'The batch is empty.');
  const records = lines.map((l) => {
    try {
      return JSON.parse(l) as unknown;
    } catch {
      throw new Rejection('malformed_body', 'Every line must be a JSON object.');
    }
  });
  return {
    externalId: digest,
    type: 'logpush.batch',
    kind: 'audit.log_batch_received',
    payload: { lines: records.length, records: records.slice(0, 1000) },
  };
}
