/**
 * The guides the service serves under /docs/guides (and the error-code page at /docs/errors that
 * every error envelope's `documentation_url` points at). Facts come from the contract (error
 * table, plans, roles, header names, limits) so a page cannot drift from what the server does.
 */
import {
  DETAIL_ISSUES,
  ERROR_CODES,
  ERROR_DESCRIPTIONS,
  ERROR_STATUS,
  type ErrorCode,
  HEADER_NAMES,
  IDEMPOTENCY_KEY_MAX,
  PLANS,
  ROLE_GRANTS,
  TIER_PLAN,
  TIERS,
} from '@svc/contract';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const code = (s: string) => `<code>${esc(s)}</code>`;
const pre = (s: string) => `<pre><code>${esc(s)}</code></pre>`;
const fmt = (n: number) => n.toLocaleString('en-US');

export interface Guide {
  /** URL segment under /docs/guides. */
  readonly slug: string;
  readonly title: string;
  readonly summary: string;
  /** The page body (HTML), given the service's public origin for the examples. */
  readonly body: (origin: string) => string;
}

/** When each error code is sent and what the caller should do about it. */
const ERROR_HELP: Record<ErrorCode, { when: string[]; fix: string; example: Record<string, unknown> }> = {
  bad_request: {
    when: [
      'the body is not JSON, or is a bare JSON string, number or null (an array is a 422)',
      'a query string that does not decode (bad percent-encoding) or gives one parameter twice',
      'the body is larger than the limit (SVC_BODY_LIMIT)',
      `a header is malformed (an ${code('Idempotency-Key')} longer than ${IDEMPOTENCY_KEY_MAX} characters or empty)`,
      `a ${code('cursor')} was not produced by this API`,
    ],
    fix: 'Fix the request; retrying it unchanged gives the same answer.',
    example: { details: [{ field: 'body', issue: 'invalid_format' }], message: 'The request body is not valid JSON.' },
  },
  unauthorized: {
    when: [
      `no ${code('Authorization: Bearer ...')} header on a route that needs one`,
      'the key is unknown, revoked or expired, or is not of the form svc_&lt;env&gt;_&lt;random&gt;',
    ],
    fix: 'Send a valid API key; the message says which of the cases applies. Ask an operator for a new key if it was revoked.',
    example: { message: 'The API key was revoked.' },
  },
  forbidden: {
    when: [
      "the tenant's tier is below the rail's minimum tier (details: field tier, issue: the tier needed)",
      "the key's role or scopes do not grant the route's permission (details: field permission)",
      `${code(HEADER_NAMES.tenant)} names another tenant than the key's`,
      'a tenant key calls an operator route',
    ],
    fix: 'Use a key with the right role or scopes, or upgrade the tier. Another tenant’s resource answers 404, never 403.',
    example: {
      message: 'Permission compliance:write is required: role viewer does not grant it.',
      details: [{ field: 'permission', issue: 'compliance:write' }],
    },
  },
  not_found: {
    when: [
      'the resource does not exist or belongs to another tenant',
      'no route has this path, or not with this method (the Allow header lists the methods)',
    ],
    fix: 'Check the id and the path; list the collection to find ids.',
    example: { message: 'No route GET /v1/compliance/nothing.' },
  },
  conflict: {
    when: [
      'a state transition is not allowed from the current state',
      'a resource with the same identity exists',
      `the same ${code('Idempotency-Key')} is in flight, or was used with another method, path or body`,
    ],
    fix: 'Read the resource again and decide; for an idempotency conflict use a new key for a new request.',
    example: { message: 'Assessment asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R is completed; start is allowed from draft.' },
  },
  validation_failed: {
    when: ['the body, query or path parameters do not match the schema of the route', `${code('limit')} outside 1..200`],
    fix: `Fix the fields named in details; each issue is one of ${DETAIL_ISSUES.map(code).join(', ')}.`,
    example: { message: 'The request body does not match the schema.', details: [{ field: 'systemId', issue: 'missing' }] },
  },
  rate_limited: {
    when: [
      "the per-second limit of the tenant's plan is exceeded",
      'the monthly quota is used up (details: field quota, issue monthly_quota_exhausted)',
    ],
    fix: `Wait the seconds of ${code('Retry-After')} and send the same request again (same Idempotency-Key); nothing was done.`,
    example: { message: 'Rate limit of 5 requests per second exceeded.' },
  },
  internal_error: {
    when: ['the server failed while handling the request'],
    fix: 'Retry later; if it persists, quote the correlation_id to support (it is in the X-Correlation-Id header too).',
    example: { message: 'The server failed to handle the request; quote the correlation id to support.' },
  },
  service_unavailable: {
    when: ['the database or the rate limiter is unreachable or busy'],
    fix: `Retry with backoff after ${code('Retry-After')} seconds; POSTs with an Idempotency-Key are safe to retry.`,
    example: { message: 'The database is unavailable; retry with backoff.' },
  },
};

function errorsBody(origin: string): string {
  const rows = ERROR_CODES.map(
    (c) => `<tr><td><a href="#${c}">${code(c)}</a></td><td>${ERROR_STATUS[c]}</td><td>${esc(ERROR_DESCRIPTIONS[c])}</td></tr>`,
  ).join('\n');
  const sections = ERROR_CODES.map((c) => {
    const h = ERROR_HELP[c];
    const envelope = {
      error: c,
      message: h.example.message,
      ...(h.example.details ? { details: h.example.details } : {}),
      correlation_id: 'cor_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      documentation_url: `${origin}/docs/errors#${c}`,
    };
    return `<section id="${c}">
<h2><a href="#${c}">${code(c)}</a> <span class="status">${ERROR_STATUS[c]}</span></h2>
<p>${esc(ERROR_DESCRIPTIONS[c])}</p>
<p><strong>Sent when</strong></p>
<ul>${h.when.map((w) => `<li>${w}</li>`).join('')}</ul>
<p><strong>What to do.</strong> ${h.fix}</p>
${pre(JSON.stringify(envelope, null, 2))}
</section>`;
  }).join('\n');
  return `<p>Every failure is answered with one JSON envelope, whatever failed (a handler, validation, authentication,
Express itself): ${code('error')} (one of the nine codes below), ${code('message')} (for people; may change, do not parse),
${code('details')} (per-field problems, when there are any), ${code('correlation_id')} (also in the ${code('X-Correlation-Id')}
header: quote it to support) and ${code('documentation_url')}, which points at the section of this page for the code.</p>
<table><thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead><tbody>
${rows}
</tbody></table>
<p>${code('details[].issue')} uses a small stable vocabulary: ${DETAIL_ISSUES.map(code).join(', ')}, or a code-specific word
(the tier or permission needed on a 403).</p>
${sections}`;
}

function authenticationBody(origin: string): string {
  const roles = Object.entries(ROLE_GRANTS)
    .map(([role, grants]) => `<tr><td>${code(role)}</td><td>${grants.map(code).join(', ')}</td></tr>`)
    .join('');
  return `<p>Every route but the health check, the OpenAPI document, these pages and the public read surfaces needs an API key
in the ${code('Authorization')} header:</p>
${pre(`curl ${origin}/v1/frameworks -H "Authorization: Bearer $SVC_API_KEY"`)}
<p>A key looks like ${code('svc_<env>_<random>')} (${code('live')}, ${code('test')} or ${code('dev')}, matching the tenant's environment).
It is shown once when it is issued (by an operator: ${code('svc keys create')}), stored hashed, can be revoked and may expire.
The tenant comes from the key, never from the body; ${code('X-IOF-Tenant')} is optional and, when sent, must name the key's tenant
(else <a href="/docs/errors#forbidden">403 forbidden</a>).</p>
<h2 id="roles">Roles and scopes</h2>
<p>A key has a role; a permission is ${code('<area>:<action>')}, and ${code('*')} matches any area or action.</p>
<table><thead><tr><th>role</th><th>grants</th></tr></thead><tbody>${roles}</tbody></table>
<p>A key may also carry scopes (${code('compliance:read,compliance:write')}): the request needs both the role and a scope to grant the
permission. Each operation of the <a href="/docs">API reference</a> names its permission (${code('x-svc-permission')}).</p>
<h2 id="tiers">Tiers</h2>
<p>Each rail has a minimum tier (${TIERS.map(code).join(' &lt; ')}); a tenant below it gets <a href="/docs/errors#forbidden">403 forbidden</a>
naming the tier needed. Operator routes (${code('/v1/operator/...')}) take an operator credential ${code('svc_op_<random>')} instead.</p>
<h2 id="failures">Failures</h2>
<p>No key, an unknown, revoked or expired one: <a href="/docs/errors#unauthorized">401 unauthorized</a>, with the reason in ${code('message')}.</p>`;
}

function paginationBody(origin: string): string {
  return `<p>Every list answers ${code('{ "data": [...], "cursor": "..." }')}, newest first. ${code('limit')} is 1 to 200 (default 50;
outside the range: <a href="/docs/errors#validation_failed">422 validation_failed</a>). Pass the ${code('cursor')} of a page to get the next one;
it is ${code('null')} on the last page. Cursors are opaque (a keyset position): do not build or change them (a forged one is
<a href="/docs/errors#bad_request">400 bad_request</a>). Filters stay the same from page to page.</p>
${pre(`curl '${origin}/v1/compliance/assessments?limit=100' -H "Authorization: Bearer $SVC_API_KEY"
# { "data": [ ... 100 items ... ], "cursor": "eyJ0IjoiMjAyNi0xMS0yMlQwOTozMDowMC4wMDBaIiwiaSI6ImFzbV8wMUpEIn0" }
curl '${origin}/v1/compliance/assessments?limit=100&cursor=eyJ0IjoiMjAyNi0xMS0yMlQwOTozMDowMC4wMDBaIiwiaSI6ImFzbV8wMUpEIn0' \\
  -H "Authorization: Bearer $SVC_API_KEY"`)}
<p>With the SDK, ${code('svc.paginate')} walks every page:</p>
${pre(`for await (const a of svc.paginate(svc.compliance.assessments.list, { query: { limit: 200 } })) {
  console.log(a.id, a.status);
}`)}`;
}

function idempotencyBody(origin: string): string {
  return `<p>Send an ${code('Idempotency-Key')} (1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters, a UUID is a good choice) with every POST
(those that change state, and also queries, exports and the public routes). The first completed answer is stored for 24 hours,
scoped to the tenant and fingerprinted by method, path and body; a repeat with the same key gets that answer again with
${code('Idempotent-Replayed: true')}, and nothing runs twice. A retry after a time-out, a 429 or a 503 is therefore safe.
Without a credential the key is scoped to your address and the stored answer can be opened only with the key. A read-only
answer over 1 MiB is not stored; its repeat runs again.</p>
${pre(`curl -X POST ${origin}/v1/compliance/assessments \\
  -H "Authorization: Bearer $SVC_API_KEY" -H 'Content-Type: application/json' \\
  -H 'Idempotency-Key: 6f1c2d0e-7a4b-4c55-9d8e-0b1a2c3d4e5f' \\
  -d '{"type":"fria","systemId":"sys_credit_scoring_v2","jurisdiction":"eu/de"}'`)}
<ul>
<li>The same key while the first request is still running: <a href="/docs/errors#conflict">409 conflict</a>; retry a moment later.</li>
<li>The same key with another method, path or body: <a href="/docs/errors#conflict">409 conflict</a> (details say which); use a new key for a new request.</li>
<li>A key that is empty or longer than ${IDEMPOTENCY_KEY_MAX} characters: <a href="/docs/errors#bad_request">400 bad_request</a>.</li>
<li>Requests refused before the handler ran (401, 403, 422, 429) are not stored: fix and resend with the same key.</li>
</ul>
<p>The SDK sends a key with every POST and reuses it across its own retries.</p>`;
}

function webhooksBody(origin: string): string {
  return `<p>Subscribe a URL to event types (${code('assessment.created')}, a category ${code('assessment.*')} or ${code('*')});
the secret is returned once:</p>
${pre(`curl -X POST ${origin}/v1/webhook-subscriptions \\
  -H "Authorization: Bearer $SVC_API_KEY" -H 'Content-Type: application/json' -H "Idempotency-Key: $(uuidgen)" \\
  -d '{"url":"https://hooks.example.com/svc","eventTypes":["assessment.*"]}'`)}
<p>Each delivery is a POST of a CloudEvents 1.0 envelope (${code('id')}, ${code('type')}, ${code('source')}, ${code('time')},
${code('subject')}, ${code('tenantid')}, ${code('data')}) with the headers ${code('x-svc-signature')}
(${code('t=<unix seconds>,v1=<hex>')}, two ${code('v1')} during a secret rotation), ${code('x-svc-event')}, ${code('x-svc-tenant')} and
${code('x-svc-delivery-attempt')}. The event types and their ${code('data')} schemas are in the ${code('webhooks')} section of the
<a href="/docs">API reference</a>.</p>
<h2 id="verify">Verifying</h2>
<p>${code('v1')} is HMAC-SHA256 keyed with the whole secret (${code('whsec_...')}) over ${code('<t>.<raw body>')}. Verify against the raw
bytes before parsing, compare in constant time, refuse a ${code('t')} more than 300 s away. The SDK does it:</p>
${pre(`import { webhooks, WebhookVerificationError } from '@svc/sdk';

app.post('/svc', express.raw({ type: 'application/json' }), (req, res) => {
  try {
    const event = webhooks.verify(req.body, req.get('x-svc-signature'), process.env.SVC_WEBHOOK_SECRET!);
    res.sendStatus(204);
    queue.add(event.id, event); // deduplicate by event.id
  } catch (err) {
    if (err instanceof WebhookVerificationError) return res.status(400).send(err.reason);
    throw err;
  }
});`)}
<h2 id="retries">Retries and the dead-letter queue</h2>
<p>Answer 2xx within 30 s; anything else is a failed attempt. After a failure the next attempt is due after 1 s, 5 s, 30 s and 5 min;
after the fifth failure the delivery is parked in the dead-letter queue, and an operator replays it
(${code('svc webhooks dlq replay')}), keeping the event id. Delivery is at least once: deduplicate by ${code('id')}.</p>`;
}

function rateLimitsBody(): string {
  const rows = TIERS.map((t) => {
    const plan = PLANS[TIER_PLAN[t]];
    return `<tr><td>${code(t)}</td><td>${TIER_PLAN[t]}</td><td>${fmt(plan.perSecond)}</td><td>${fmt(plan.perMonth)}</td></tr>`;
  }).join('');
  return `<table><thead><tr><th>tier</th><th>plan</th><th>requests per second</th><th>requests per month</th></tr></thead><tbody>${rows}</tbody></table>
<p>Enterprise limits are custom per tenant (these by default). Every response carries ${code('X-RateLimit-Limit')},
${code('X-RateLimit-Remaining')} and ${code('X-RateLimit-Reset')}; over a limit the answer is <a href="/docs/errors#rate_limited">429 rate_limited</a>
with ${code('Retry-After')}.</p>`;
}

export const GUIDES: readonly Guide[] = [
  { slug: 'authentication', title: 'Authentication', summary: 'API keys, roles, scopes and tiers.', body: authenticationBody },
  { slug: 'pagination', title: 'Pagination', summary: 'limit, opaque cursors, walking every page.', body: paginationBody },
  { slug: 'idempotency', title: 'Idempotency', summary: 'Idempotency-Key: retrying POSTs safely.', body: idempotencyBody },
  { slug: 'webhooks', title: 'Webhooks', summary: 'Subscriptions, signatures, retries, the dead-letter queue.', body: webhooksBody },
  { slug: 'rate-limits', title: 'Rate limits', summary: 'Limits per tier, headers, 429.', body: () => rateLimitsBody() },
  { slug: 'errors', title: 'Errors', summary: 'The error envelope and every error code, one anchor per code.', body: errorsBody },
];

const STYLE = `body{font:16px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:56rem;margin:0 auto;padding:1.5rem;color:#1d2430}
nav{margin-bottom:1.5rem;font-size:.95rem}nav a{margin-right:1rem}a{color:#2350c8}
pre{background:#f4f6fa;padding:.8rem 1rem;overflow:auto;border-radius:6px;font-size:.85rem}code{font-family:ui-monospace,Menlo,Consolas,monospace}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #d8dde6;padding:.35rem .6rem;text-align:left;vertical-align:top}
section{border-top:1px solid #e3e7ee;margin-top:2rem}.status{color:#6b7385;font-weight:normal}`;

/** A whole HTML page with the docs navigation. */
export function page(title: string, body: string): string {
  const nav = [
    `<a href="/docs">API reference</a>`,
    `<a href="/docs/guides">Guides</a>`,
    ...GUIDES.map((g) => `<a href="/docs/guides/${g.slug}">${esc(g.title)}</a>`),
  ].join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Compliance Platform Service</title>
<style>${STYLE}</style>
</head>
<body>
<nav>${nav}</nav>
<h1>${esc(title)}</h1>
${body}
</body>
</html>`;
}

export function guidesIndex(): string {
  const items = GUIDES.map((g) => `<li><a href="/docs/guides/${g.slug}">${esc(g.title)}</a>: ${esc(g.summary)}</li>`).join('\n');
  return page(
    'Guides',
    `<ul>
${items}
</ul>
<p>The <a href="/docs">API reference</a> is built from the live OpenAPI document (<a href="/v1/openapi.json">/v1/openapi.json</a>).</p>`,
  );
}

export function guidePage(slug: string, origin: string): string | undefined {
  const g = GUIDES.find((x) => x.slug === slug);
  return g ? page(g.title, g.body(origin)) : undefined;
}
