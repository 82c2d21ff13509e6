import { type DeclaredState, type DeclaredStateBody, DRIFT_CHECKS, DriftItem, GENESIS_HASH, ReconciliationRun } from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import type { DriftFinding, ReconciliationRun as RunRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Logger } from '../../logger.ts';
import { startPeriodic } from '../../platform/events/periodic.ts';
import { chainVerifierFrom, toChainedEvent, VERIFY_PAGE } from '../../platform/ledger/audit.ts';
import { recordChange } from '../../platform/ledger/changes.ts';
import { nextTurn } from '../../platform/next-turn.ts';
import { lockKey } from '../../platform/records.ts';
import { rendererOf } from '../../platform/render.ts';

type Check = (typeof DRIFT_CHECKS)[number];
type Declared = z.infer<typeof DeclaredStateBody>;

export interface Finding {
  check: Check;
  type: string;
  subject: string;
  control?: string;
  detail: Record<string, unknown>;
}

const DAY = 86_400_000;
/** Audit events a run of the audit-chain check reads and verifies at most (the next run goes on). */
export const AUDIT_VERIFY_MAX = 50_000;
const EMPTY: Declared = { activatedFrameworks: [], controlBaseline: [], attestationMaxAgeDays: null, maxApiKeyAgeDays: null };

export async function getDeclared(prisma: Prisma | Tx, tenantId: string): Promise<z.infer<typeof DeclaredState>> {
  const row = await prisma.declaredState.findUnique({ where: { tenantId } });
  const state = (row?.state as Declared | undefined) ?? EMPTY;
  return {
    object: 'svc.reconciliation.declared',
    version: row?.version ?? 0,
    activatedFrameworks: state.activatedFrameworks,
    controlBaseline: state.controlBaseline,
    attestationMaxAgeDays: state.attestationMaxAgeDays,
    maxApiKeyAgeDays: state.maxApiKeyAgeDays,
    updatedBy: row?.updatedBy ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export async function putDeclared(prisma: Prisma, who: { tenantId: string; actor: string; correlationId: string }, body: Declared) {
  const state: Declared = {
    activatedFrameworks: [...new Set(body.activatedFrameworks)].sort(),
    controlBaseline: [...new Set(body.controlBaseline)].sort(),
    attestationMaxAgeDays: body.attestationMaxAgeDays,
    maxApiKeyAgeDays: body.maxApiKeyAgeDays,
  };
  return prisma.$transaction(async (tx) => {
    // One declaration at a time per tenant: each reads the version the previous one committed
    // (there is no row to lock before the first), so versions are never lost or repeated.
    await lockKey(tx, `svc.reconciliation.declared:${who.tenantId}`);
    const current = await tx.declaredState.findUnique({ where: { tenantId: who.tenantId } });
    const version = (current?.version ?? 0) + 1;
    await tx.declaredState.upsert({
      where: { tenantId: who.tenantId },
      create: { tenantId: who.tenantId, version, state, updatedBy: who.actor, updatedAt: new Date() },
      update: { version, state, updatedBy: who.actor, updatedAt: new Date() },
    });
    await recordChange(tx, {
      ...who,
      action: 'reconciliation.declared_updated',
      resourceType: 'svc.reconciliation.declared',
      resourceId: who.tenantId,
      data: { version, ...state },
    });
    return getDeclared(tx, who.tenantId);
  });
}

/** A finding of `check` for each control of the declared baseline that is not in `ok`, each with its copy of `detail`. */
function baselineGaps(declared: Declared, ok: ReadonlySet<string>, check: Check, type: string, detail: Record<string, unknown>): Finding[] {
  return declared.controlBaseline.filter((c) => !ok.has(c)).map((c) => ({ check, type, subject: c, control: c, detail: { ...detail } }));
}

/**
 * The seven checks. Each compares what the tenant declared (or what must always hold) with the
 * actual state, and returns what diverges; an empty list means the check is quiet.
 */
export const CHECKS: Record<Check, (tx: Tx, tenantId: string, declared: Declared, now: Date) => Promise<Finding[]>> = {
  /** Declared frameworks that are not active, and active ones that were not declared. */
  'framework-activation': async (tx, tenantId, declared) => {
    const actual = new Set((await scopeToTenant(tx, tenantId).frameworkActivation.findMany()).map((a) => a.frameworkId));
    const wanted = new Set(declared.activatedFrameworks);
    return [
      ...[...wanted]
        .filter((f) => !actual.has(f))
        .map((f) => ({ check: 'framework-activation' as const, type: 'framework-not-active', subject: f, detail: { framework: f } })),
      ...(wanted.size > 0 || declared.controlBaseline.length > 0
        ? [...actual]
            .filter((f) => !wanted.has(f))
            .map((f) => ({ check: 'framework-activation' as const, type: 'framework-undeclared', subject: f, detail: { framework: f } }))
        : []),
    ];
  },

  /** Every baseline control is backed by evidence that is collected and not expired. */
  'control-evidence': async (tx, tenantId, declared, now) => {
    if (declared.controlBaseline.length === 0) return [];
    const evidence = await scopeToTenant(tx, tenantId).evidence.findMany({
      where: {
        controlIds: { hasSome: declared.controlBaseline },
        collectedAt: { lte: now },
        OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
      },
      select: { controlIds: true },
    });
    const covered = new Set(evidence.flatMap((e) => e.controlIds));
    return baselineGaps(declared, covered, 'control-evidence', 'baseline-divergence', { reason: 'no current evidence' });
  },

  /** The newest evidence of an implemented control (in the baseline or attested) has not expired. */
  'evidence-expiry': async (tx, tenantId, declared, now) => {
    const db = scopeToTenant(tx, tenantId);
    const attested = (await db.attestation.findMany({ where: { subjectType: 'control' }, select: { subjectId: true } })).map(
      (a) => a.subjectId,
    );
    const implemented = [...new Set([...declared.controlBaseline, ...attested])];
    if (implemented.length === 0) return [];
    const evidence = await db.evidence.findMany({
      where: { controlIds: { hasSome: implemented } },
      orderBy: { collectedAt: 'desc' },
      select: { id: true, controlIds: true, expiresAt: true },
    });
    const out: Finding[] = [];
    for (const control of implemented) {
      const latest = evidence.find((e) => e.controlIds.includes(control));
      if (latest?.expiresAt && latest.expiresAt <= now) {
        out.push({
          check: 'evidence-expiry',
          type: 'evidence-expired',
          subject: control,
          control,
          detail: { evidenceId: latest.id, expiredAt: latest.expiresAt.toISOString() },
        });
      }
    }
    return out;
  },

  /** Each baseline control has an attestation no older than the declared maximum age. */
  'attestation-freshness': async (tx, tenantId, declared, now) => {
    if (declared.attestationMaxAgeDays === null || declared.controlBaseline.length === 0) return [];
    const since = new Date(now.getTime() - declared.attestationMaxAgeDays * DAY);
    const fresh = await scopeToTenant(tx, tenantId).attestation.findMany({
      where: { subjectType: 'control', subjectId: { in: declared.controlBaseline }, attestedAt: { gte: since } },
      select: { subjectId: true },
    });
    const ok = new Set(fresh.map((a) => a.subjectId));
    return baselineGaps(declared, ok, 'attestation-freshness', 'attestation-stale', { maxAgeDays: declared.attestationMaxAgeDays });
  },

  /** Every row of the event index is covered by an event of the audit trail. */
  'events-covered': async (tx, tenantId) => {
    const rows = await tx.$queryRaw<{ id: string; kind: string }[]>`
      SELECT e."id", e."kind" FROM "event_index" e
      WHERE e."tenant_id" = ${tenantId}
        AND NOT EXISTS (SELECT 1 FROM "audit_events" a WHERE a."id" = e."audit_event_id" AND a."tenant_id" = e."tenant_id")
      ORDER BY e."id" LIMIT 1000`;
    return rows.map((r) => ({ check: 'events-covered' as const, type: 'uncovered-event', subject: r.id, detail: { kind: r.kind } }));
  },

  /**
   * The audit chain verifies from where the last run stopped (links, hashes, signatures), at most
   * AUDIT_VERIFY_MAX events a run, read and checked a page at a time: a busy tenant's thousands of
   * events since the last run are neither held at once nor checked in one turn of the event loop,
   * which the process's requests would wait behind (seconds, every interval). Keys retired by
   * rotations before the mark are refused after it as a walk from the start would refuse them.
   */
  'audit-chain': async (tx, tenantId, _declared, now) => {
    const mark = await tx.auditVerification.findUnique({ where: { tenantId } });
    const anchor = mark ? { seq: mark.seq, hash: mark.hash } : { seq: 0, hash: GENESIS_HASH };
    const verifier = await chainVerifierFrom(tx, tenantId, anchor);
    let last = anchor;
    for (let read = 0; read < AUDIT_VERIFY_MAX; ) {
      if (read > 0) await nextTurn();
      const rows = await tx.auditEvent.findMany({
        where: { tenantId, seq: { gt: last.seq } },
        orderBy: { seq: 'asc' },
        take: Math.min(VERIFY_PAGE, AUDIT_VERIFY_MAX - read),
      });
      const b = verifier.push(rows.map(toChainedEvent)).firstBroken;
      if (b) {
        return [
          {
            check: 'audit-chain',
            type: 'audit-chain-broken',
            subject: `seq:${b.seq}`,
            detail: { eventId: b.id, reason: b.reason, message: b.message },
          },
        ];
      }
      const end = rows.at(-1);
      if (!end) break;
      last = { seq: end.seq, hash: end.hash };
      read += rows.length;
      if (rows.length < VERIFY_PAGE) break;
    }
    if (last.seq > anchor.seq) {
      await tx.auditVerification.upsert({
        where: { tenantId },
        create: { tenantId, seq: last.seq, hash: last.hash, verifiedAt: now },
        update: { seq: last.seq, hash: last.hash, verifiedAt: now },
      });
    }
    return [];
  },

  /** Active API keys older than the declared maximum age. */
  'credential-age': async (tx, tenantId, declared, now) => {
    if (declared.maxApiKeyAgeDays === null) return [];
    const before = new Date(now.getTime() - declared.maxApiKeyAgeDays * DAY);
    const keys = await scopeToTenant(tx, tenantId).apiKey.findMany({
      where: { revokedAt: null, createdAt: { lt: before }, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      select: { id: true, createdAt: true, role: true },
    });
    return keys.map((k) => ({
      check: 'credential-age' as const,
      type: 'stale-credential',
      subject: k.id,
      detail: { role: k.role, createdAt: k.createdAt.toISOString(), maxAgeDays: declared.maxApiKeyAgeDays },
    }));
  },
};

const keyOf = (f: { check: string; type: string; subject: string }) => `${f.check}\u0000${f.type}\u0000${f.subject}`;

/**
 * One run for one tenant: all checks, then new findings are opened and vanished ones resolved,
 * each with an audit event in the same transaction. Concurrent runs of one tenant (several
 * processes on one schedule) are skipped by a transaction-scoped advisory lock.
 */
export async function reconcileTenant(prisma: Prisma, tenantId: string, trigger: 'schedule' | 'manual', now = new Date()) {
  return prisma.$transaction(
    async (tx) => {
      const [lock] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext(${`reconcile:${tenantId}`})) AS ok`;
      if (!lock?.ok) return null;
      const runId = newId('rcn');
      const startedAt = new Date();
      const declaredRow = await tx.declaredState.findUnique({ where: { tenantId } });
      const declared = (declaredRow?.state as Declared | undefined) ?? EMPTY;
      const found: Finding[] = [];
      for (const check of DRIFT_CHECKS) found.push(...(await CHECKS[check](tx, tenantId, declared, now)));
      const current = new Map(found.map((f) => [keyOf(f), f]));
      const open = await tx.driftFinding.findMany({ where: { tenantId, status: 'open' } });
      const openKeys = new Set(open.map(keyOf));
      const who = { tenantId, actor: 'reconciler', correlationId: runId };
      const recordDrift = (action: string, id: string, data: Record<string, unknown>) =>
        recordChange(tx, { ...who, action, resourceType: 'svc.reconciliation.drift', resourceId: id, data });
      let opened = 0;
      let resolved = 0;
      for (const f of found) {
        if (openKeys.has(keyOf(f))) continue;
        const id = newId('drf');
        const event = await recordDrift('drift.detected', id, { check: f.check, type: f.type, subject: f.subject, detail: f.detail });
        await tx.driftFinding.create({
          data: {
            id,
            tenantId,
            check: f.check,
            type: f.type,
            subject: f.subject,
            detail: { ...f.detail, ...(f.control ? { control: f.control } : {}) },
            status: 'open',
            firstSeenAt: now,
            lastSeenAt: now,
            auditSeq: event.seq,
          },
        });
        opened++;
      }
      for (const o of open) {
        if (current.has(keyOf(o))) {
          await tx.driftFinding.update({ where: { id: o.id }, data: { lastSeenAt: now } });
          continue;
        }
        await recordDrift('drift.resolved', o.id, { check: o.check, type: o.type, subject: o.subject });
        await tx.driftFinding.update({ where: { id: o.id }, data: { status: 'resolved', resolvedAt: now } });
        resolved++;
      }
      const run = await tx.reconciliationRun.create({
        data: { id: runId, tenantId, trigger, startedAt, finishedAt: new Date(), opened, resolved, open: found.length },
      });
      return renderRun(run);
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

const renderRun = rendererOf<RunRow>()(ReconciliationRun, {});

export const renderDrift = rendererOf<DriftFinding>()(DriftItem, {
  control: (f) => {
    const detail = f.detail as Record<string, unknown>;
    return typeof detail.control === 'string' ? detail.control : null;
  },
  detail: (f) => f.detail as Record<string, unknown>,
});

export async function listDrifts(prisma: Prisma, tenantId: string, q: { limit: number; cursor?: string; status?: string; check?: string }) {
  return keysetList(scopeToTenant(prisma, tenantId).driftFinding, q, { filters: ['status', 'check'], render: renderDrift });
}

export async function driftSummary(prisma: Prisma, tenantId: string, intervalSeconds: number) {
  const groups = await prisma.driftFinding.groupBy({ by: ['check', 'type', 'status'], where: { tenantId }, _count: { _all: true } });
  const last = await prisma.reconciliationRun.findFirst({ where: { tenantId }, orderBy: { startedAt: 'desc' } });
  const count = (pred: (g: (typeof groups)[number]) => boolean) => groups.filter(pred).reduce((s, g) => s + g._count._all, 0);
  const types = [...new Set(groups.filter((g) => g.status === 'open').map((g) => g.type))].sort();
  return {
    object: 'svc.reconciliation.summary' as const,
    open: count((g) => g.status === 'open'),
    resolved: count((g) => g.status === 'resolved'),
    byCheck: DRIFT_CHECKS.map((check) => ({
      check,
      open: count((g) => g.check === check && g.status === 'open'),
      resolved: count((g) => g.check === check && g.status === 'resolved'),
    })),
    byType: types.map((type) => ({ type, open: count((g) => g.type === type && g.status === 'open') })),
    lastRun: last ? renderRun(last) : null,
    intervalSeconds,
  };
}

/**
 * Tenants in the order a scheduled pass should take them: first those changed since their last
 * run (their chain head moved), then never-reconciled ones, newest first, then the rest, least
 * recently reconciled first. A pass that cannot finish within the interval still reaches the
 * tenants where drift is most likely.
 */
async function tenantsByUrgency(prisma: Prisma): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT t."id" FROM "tenants" t
    LEFT JOIN LATERAL (SELECT max(r."started_at") AS "last" FROM "reconciliation_runs" r WHERE r."tenant_id" = t."id") r ON true
    LEFT JOIN "audit_chain_heads" h ON h."tenant_id" = t."id"
    ORDER BY (h."updated_at" IS NOT NULL AND (r."last" IS NULL OR h."updated_at" > r."last")) DESC,
             r."last" ASC NULLS FIRST, t."created_at" DESC`;
  return rows.map((r) => r.id);
}

/**
 * The scheduled job: every tenant, every interval, a few tenants at a time; failures are logged
 * and retried on the next pass. Passes never overlap within a process, and the per-tenant lock
 * keeps processes from running one tenant twice.
 */
export function startReconciler(prisma: Prisma, log: Logger, intervalSeconds: number, concurrency = 4): () => void {
  return startPeriodic('reconciliation', log, intervalSeconds, async (stopped) => {
    const queue = await tenantsByUrgency(prisma);
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let id = queue.shift(); id !== undefined && !stopped(); id = queue.shift()) {
          try {
            await reconcileTenant(prisma, id, 'schedule');
          } catch (err) {
            log.warn('reconciliation failed', { tenant_id: id, error: String(err) });
          }
        }
      }),
    );
  });
}
