/**
 * A child of `pnpm bench` (api-bench.ts): the baseline the API is measured against, written by
 * hand on `node:http` and a `pg` Pool (max 10, as the API's pool) against the same PostgreSQL, the
 * same tables and the same tenant as the API child. It imports of the server only the pure
 * question-set builder of assessments and its recipes (the API, too, computes a type's question set
 * once per dictionary version), the secret box that opens the signing key; else @svc/contract (the
 * audit hash), pg and node built-ins.
 *
 * - GET /v1/compliance/frameworks: the statement of the API's listTenantFrameworks
 *   (packages/server/src/rails/compliance/service.ts), same text and parameters, limit 50 + 1, rendered
 *   to the same JSON. One round trip.
 * - POST /v1/compliance/assessments: the tenant's pinned dictionary version (one round trip, as the
 *   API reads the activation), then the assessment row naming its stored question set, its audit event (chained, hashed with
 *   hashEvent, one Ed25519 signature with the stored key), the event-index row and the outbox
 *   rows (webhook_events plus one webhook_deliveries row per matching subscription), in one
 *   transaction: BEGIN; one statement that locks (or creates) the chain head and reads the signing
 *   key id and the subscriptions; one multi-CTE statement that writes every row and moves the
 *   head; COMMIT. Five round trips. Answers 201 with the assessment.
 *
 * No authentication, no idempotency record, no rate limit, no request validation beyond what the
 * SQL needs: that is the API's overhead to beat. Statements are named (prepared once per
 * connection) unless BENCH_RAW_PREPARED=0.
 *
 * Env: DATABASE_URL, BENCH_TENANT_ID (the API child's tenant), BENCH_ACTOR, SVC_SECRETS_KEY (the API child's: the audit
 * signing key is sealed with it).
 */
import { createHash, createPrivateKey, type KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ASSESSMENT_TYPE_IDS, type AssessmentType, GENESIS_HASH } from '@svc/contract';
import { hashEvent } from '@svc/contract/audit';
import pg from 'pg';
import { progress, type QuestionSet, questionsFromRecipe } from '../../packages/server/src/rails/compliance/questions.ts';
import { RECIPES } from '../../packages/server/src/rails/compliance/recipes.ts';
import type { FrameworkRow } from '../../packages/server/src/rails/compliance/service.ts';
import { configureSecretsKey, openSecret } from '../../packages/server/src/webhooks/secret-box.ts';
import { failed, onShutdown, ready } from './bench-child-ipc.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const TENANT_ID = process.env.BENCH_TENANT_ID;
const ACTOR = process.env.BENCH_ACTOR ?? 'key_raw_bench';
const PREPARED = process.env.BENCH_RAW_PREPARED !== '0';
const PAGE_LIMIT = 50;
const ACTION = 'assessment.created';
const RESOURCE_TYPE = 'svc.compliance.assessment';
const COLLECTION_PATH = '/v1/compliance/assessments';
/** The subscription filters that select `assessment.created`: itself, its category and `*`. */
const FILTERS = [ACTION, 'assessment.*', '*'];

// timestamp(3) without time zone holds UTC; pg would read it as local time.
pg.types.setTypeParser(1114, (s: string) => new Date(`${s.replace(' ', 'T')}Z`));

/** A prefixed, time-sortable id like the API's (`asm_` + 26 Crockford base-32 characters). */
const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function newId(prefix: string): string {
  let t = Date.now();
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = B32[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const r = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) rand += B32[r[i]! & 31];
  return `${prefix}_${time}${rand}`;
}

// Copied from listTenantFrameworks: the text Prisma sends for its tagged template ($1..$6).
const FRAMEWORKS_SQL = `
    SELECT f."id", f."title", f."short_title", f."latest_version", a."version_key", a."created_at" AS "activated_at",
           coalesce(o."total", 0)::int AS "total", coalesce(o."open", 0)::int AS "open"
    FROM "frameworks" f
    LEFT JOIN "framework_activations" a ON a."tenant_id" = $1 AND a."framework_id" = f."id"
    LEFT JOIN LATERAL (
      SELECT count(*) AS "total", count(*) FILTER (WHERE ob."status" = 'open') AS "open"
      FROM "obligations" ob WHERE ob."tenant_id" = $2 AND ob."framework_id" = f."id") o ON a."id" IS NOT NULL
    WHERE f."id" > $3 AND ($4::boolean IS NULL OR (a."id" IS NOT NULL) = $5::boolean)
    ORDER BY f."id" LIMIT $6`;

/**
 * Locks the tenant's chain head (creating it at genesis on the first event) and reads, in the
 * same round trip, the signing key to use (newest active key with a stored private half) and the
 * subscriptions the event goes to. The row lock queues concurrent writers of the tenant until
 * COMMIT, so each event links to the hash its predecessor committed.
 */
const HEAD_SQL = `
    WITH head AS (
      INSERT INTO "audit_chain_heads" ("tenant_id", "seq", "hash") VALUES ($1, 0, $2)
      ON CONFLICT ("tenant_id") DO UPDATE SET "tenant_id" = EXCLUDED."tenant_id"
      RETURNING "seq", "hash")
    SELECT head."seq", head."hash",
      (SELECT k."id" FROM "signing_keys" k WHERE k."private_key" IS NOT NULL
        ORDER BY k."retired_at" DESC NULLS FIRST, k."created_at" DESC LIMIT 1) AS "key_id",
      (SELECT array_agg(s."id" ORDER BY s."id") FROM "webhook_subscriptions" s
        WHERE s."tenant_id" = $1 AND s."enabled" AND s."event_types" && $3::text[]) AS "subs"
    FROM head`;

/** Every row of the change and the head's move, in one statement; the outbox CTEs only with subscribers. */
const WRITE_SQL = `
    WITH asm AS (
      INSERT INTO "assessments" ("id", "tenant_id", "type", "system_id", "jurisdiction", "title", "status", "completion", "stages",
        "created_by", "created_at", "updated_at", "question_set", "framework", "dictionary_version", "recipe_version")
      VALUES ($1, $2, $3, $4, $5, NULL, 'draft', 0, $6::jsonb, $7, $8, $8, $18, $19, $20, $21)),
    ev AS (
      INSERT INTO "audit_events" ("id", "tenant_id", "seq", "prev_hash", "hash", "signature", "key_id", "actor", "action",
        "resource_type", "resource_id", "correlation_id", "data", "created_at")
      VALUES ($9, $2, $10, $11, $12, $13, $14, $7, '${ACTION}', '${RESOURCE_TYPE}', $1, $15, $16::jsonb, $8)),
    hd AS (
      UPDATE "audit_chain_heads" SET "seq" = $10, "hash" = $12, "updated_at" = $8 WHERE "tenant_id" = $2),
    ix AS (
      INSERT INTO "event_index" ("id", "time", "tenant_id", "source", "kind", "phase", "severity", "actor", "entity", "action",
        "outcome", "correlation_id", "latency_ms", "attributes", "over_budget", "audit_event_id")
      VALUES ($17, $8, $2, 'svc.api', '${ACTION}', 'completed', 'info', $7, $1, 'created', 'success', $15, NULL,
        '{"resourceType":"${RESOURCE_TYPE}"}'::jsonb, false, $9))`;
const OUTBOX_SQL = `,
    we AS (
      INSERT INTO "webhook_events" ("id", "tenant_id", "type", "source", "subject", "data", "correlation_id", "created_at")
      VALUES ($22, $2, '${ACTION}', $23, $1, $24::jsonb, $15, $8)),
    wd AS (
      INSERT INTO "webhook_deliveries" ("id", "tenant_id", "subscription_id", "event_id", "event_type", "status", "next_attempt_at",
        "created_at", "updated_at")
      SELECT unnest($25::text[]), $2, unnest($26::text[]), $22, '${ACTION}', 'pending', $8, $8, $8)`;

const named = (name: string) => (PREPARED ? { name } : {});

interface HeadRow {
  seq: number;
  hash: string;
  key_id: string | null;
  subs: string[] | null;
}

function reply(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function fail(res: ServerResponse, status: number, error: string, message: string): void {
  reply(res, status, JSON.stringify({ error, message }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function main() {
  if (!DATABASE_URL || !TENANT_ID) throw new Error('DATABASE_URL and BENCH_TENANT_ID are required');
  const tenantId = TENANT_ID;
  configureSecretsKey(process.env.SVC_SECRETS_KEY);
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
  pool.on('error', () => {}); // an idle client's broken connection: the pool drops it
  const keys = new Map<string, KeyObject>();

  async function listFrameworks(search: URLSearchParams): Promise<string> {
    const limit = Math.min(200, Math.max(1, Number(search.get('limit') ?? PAGE_LIMIT) || PAGE_LIMIT));
    let after = '';
    const cursor = search.get('cursor');
    if (cursor) after = String((JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown }).k ?? '');
    const { rows } = await pool.query<FrameworkRow>({
      ...named('frameworks'),
      text: FRAMEWORKS_SQL,
      values: [tenantId, tenantId, after, null, null, limit + 1],
    });
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return JSON.stringify({
      data: page.map((r) => ({
        object: 'svc.compliance.framework',
        id: r.id,
        title: r.title,
        shortTitle: r.short_title,
        latestVersion: r.latest_version,
        activated: r.version_key !== null,
        dictionaryVersion: r.version_key,
        activatedAt: r.activated_at ? r.activated_at.toISOString() : null,
        obligations: { total: r.total, open: r.open },
      })),
      cursor: more && last ? Buffer.from(JSON.stringify({ k: last.id })).toString('base64url') : null,
    });
  }

  async function signingKey(client: pg.PoolClient, id: string): Promise<KeyObject> {
    const known = keys.get(id);
    if (known) return known;
    // Once per key and process: the private half is read only when the id is new.
    const { rows } = await client.query<{ private_key: string }>('SELECT "private_key" FROM "signing_keys" WHERE "id" = $1', [id]);
    const stored = rows[0]?.private_key;
    if (!stored) throw new Error(`signing key ${id} has no private key`);
    // A generated key is sealed at rest with the secrets key the API child was given.
    const key = createPrivateKey(openSecret(stored));
    keys.set(id, key);
    return key;
  }

  /** A dictionary's latest version key, when the tenant has not activated it. */
  async function latestVersion(client: pg.PoolClient, framework: string): Promise<string> {
    const { rows } = await client.query<{ latest_version: string }>({
      ...named('latest'),
      text: 'SELECT "latest_version" FROM "frameworks" WHERE "id" = $1',
      values: [framework],
    });
    return `${framework}@${rows[0]?.latest_version}`;
  }

  /**
   * A type's question set per dictionary version, drawn and stored once (as the API caches the
   * version's questions and stores each distinct set once, keyed by its SHA-256).
   */
  const sets = new Map<string, { id: string; set: QuestionSet }>();
  async function questionSet(client: pg.PoolClient, type: AssessmentType, versionKey: string): Promise<{ id: string; set: QuestionSet }> {
    const key = `${type}:${versionKey}`;
    const cached = sets.get(key);
    if (cached) return cached;
    const recipe = RECIPES.current().recipes.find((r) => r.type === type);
    if (!recipe) throw new Error(`no recipe for ${type}`);
    const [questions, clauses] = await Promise.all([
      client.query<{ id: string; text: string; control_id: string; clause_ref: string | null; answer_type: string }>(
        'SELECT "id", "text", "control_id", "clause_ref", "answer_type" FROM "framework_questions" WHERE "version_key" = $1 ORDER BY "ord"',
        [versionKey],
      ),
      client.query<{ ref: string; title: string }>('SELECT "ref", "title" FROM "framework_clauses" WHERE "version_key" = $1', [versionKey]),
    ]);
    const set = questionsFromRecipe(
      recipe,
      questions.rows.map((q) => ({ id: q.id, text: q.text, controlId: q.control_id, clauseRef: q.clause_ref, answerType: q.answer_type })),
      new Map(clauses.rows.map((c) => [c.ref, c.title])),
    );
    const json = JSON.stringify(set);
    const id = createHash('sha256').update(json).digest('hex');
    await client.query('INSERT INTO "assessment_question_sets" ("id", "questions") VALUES ($1, $2::jsonb) ON CONFLICT ("id") DO NOTHING', [
      id,
      json,
    ]);
    const stored = { id, set };
    sets.set(key, stored);
    return stored;
  }

  async function createAssessment(type: AssessmentType, systemId: string, jurisdiction: string): Promise<string> {
    const id = newId('asm');
    const auditId = newId('aud');
    const correlationId = newId('cor');
    const client = await pool.connect();
    try {
      const recipe = RECIPES.current().recipes.find((r) => r.type === type);
      if (!recipe) throw new Error(`no recipe for ${type}`);
      const pin = await client.query<{ version_key: string }>({
        ...named('pin'),
        text: 'SELECT "version_key" FROM "framework_activations" WHERE "tenant_id" = $1 AND "framework_id" = $2',
        values: [tenantId, recipe.framework],
      });
      const versionKey = pin.rows[0]?.version_key ?? (await latestVersion(client, recipe.framework));
      const set = await questionSet(client, type, versionKey);
      await client.query('BEGIN');
      const { rows } = await client.query<HeadRow>({ ...named('head'), text: HEAD_SQL, values: [tenantId, GENESIS_HASH, FILTERS] });
      const head = rows[0];
      if (!head?.key_id) throw new Error('no chain head or no signing key with a private half');
      const key = await signingKey(client, head.key_id);
      const timestamp = new Date().toISOString();
      const record = {
        object: RESOURCE_TYPE,
        id,
        type,
        title: null,
        systemId,
        jurisdiction,
        status: 'draft',
        completion: 0,
        stages: progress(set.set, new Map()).stages,
        framework: recipe.framework,
        dictionaryVersion: versionKey,
        recipeVersion: RECIPES.versionKey(),
        revision: 1,
        previousId: null,
        submittedAt: null,
        submittedBy: null,
        approvedAt: null,
        approvedBy: null,
        answersHash: null,
        createdBy: ACTOR,
        createdAt: timestamp,
        updatedAt: timestamp,
      };
      const recordJson = JSON.stringify(record);
      const seq = head.seq + 1;
      const data = { type, systemId, jurisdiction };
      const hash = hashEvent({
        id: auditId,
        tenantId,
        seq,
        prevHash: head.hash,
        timestamp,
        actor: ACTOR,
        action: ACTION,
        resourceType: RESOURCE_TYPE,
        resourceId: id,
        correlationId,
        data,
        keyId: head.key_id,
      });
      const signature = sign(null, Buffer.from(hash, 'ascii'), key).toString('base64url');
      const values: unknown[] = [
        id,
        tenantId,
        type,
        systemId,
        jurisdiction,
        JSON.stringify(record.stages),
        ACTOR,
        timestamp,
        auditId,
        seq,
        head.hash,
        hash,
        signature,
        head.key_id,
        correlationId,
        JSON.stringify(data),
        newId('evi'),
        set.id,
        recipe.framework,
        versionKey,
        RECIPES.versionKey(),
      ];
      const subs = head.subs ?? [];
      if (subs.length > 0) {
        values.push(
          newId('evt'),
          `${COLLECTION_PATH}/${id}`,
          recordJson,
          subs.map(() => newId('whd')),
          subs,
        );
      }
      await client.query({
        ...named(subs.length > 0 ? 'write_outbox' : 'write'),
        text: `${WRITE_SQL}${subs.length > 0 ? OUTBOX_SQL : ''}\n    SELECT 1`,
        values,
      });
      await client.query('COMMIT');
      client.release();
      return recordJson;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch {
        client.release(true);
      }
      throw err;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (req.method === 'GET' && path === '/v1/compliance/frameworks') {
      reply(res, 200, await listFrameworks(new URLSearchParams(q === -1 ? '' : url.slice(q + 1))));
      return;
    }
    if (req.method === 'POST' && path === COLLECTION_PATH) {
      let body: { type?: unknown; systemId?: unknown; jurisdiction?: unknown };
      try {
        body = JSON.parse(await readBody(req)) as typeof body;
      } catch {
        return fail(res, 400, 'bad_request', 'The body is not JSON.');
      }
      const { type, systemId, jurisdiction } = body ?? {};
      if (
        typeof type !== 'string' ||
        !(ASSESSMENT_TYPE_IDS as readonly string[]).includes(type) ||
        type === 'gap-analysis' ||
        typeof systemId !== 'string' ||
        typeof jurisdiction !== 'string'
      ) {
        return fail(res, 422, 'validation_failed', 'type, systemId and jurisdiction are required.');
      }
      reply(res, 201, await createAssessment(type as AssessmentType, systemId, jurisdiction.toLowerCase()));
      return;
    }
    fail(res, 404, 'not_found', `${req.method} ${path} is not served here.`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, 'internal', err instanceof Error ? err.message : String(err));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  onShutdown(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await pool.end();
  });
  ready({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, database: 'postgresql' });
}

main().catch(failed);
