import {
  type AttestAuditRunBody,
  AuditAttestation,
  AuditFinding,
  AuditRun,
  type AuditRunAccepted,
  type AuditRunReplay,
  type AuditSignOff,
  type auditRuns,
  type auditSchedules,
  type ResolveAuditFindingBody,
  type SignOffAuditRunBody,
  type StartAuditRunBody,
} from '@svc/contract';
import { CronExpressionParser } from 'cron-parser';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid } from '../../errors.ts';
import type {
  AuditAttestation as AttestationRow,
  AuditFinding as FindingRow,
  FrameworkControl,
  AuditRun as RunRow,
  AuditSchedule as ScheduleRow,
  AuditSignOff as SignOffRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { actingPerson, type PersonActor } from '../../platform/acting-person.ts';
import { enqueueJob } from '../../platform/events/jobs.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { orNotFound } from '../../platform/queries.ts';
import { isUniqueViolation, recorded } from '../../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';
import { latestApprovedGaps } from '../compliance/gap-status.ts';
import { canonicalHash, getBundleHash } from '../taxonomy/service.ts';
import {
  type AuditInputs,
  auditRules,
  type Check,
  countsOf,
  type EvaluatedFinding,
  estimateCompletion,
  evaluate,
  findingsHash,
} from './rules.ts';

/**
 * The audit_engine rail: schedules, runs, findings, replay, sign-off and attestation. A run is
 * written by the request (pinned content, status `running`) with its `audit.run` job in the same
 * transaction; the job (audit-engine-jobs.ts) gathers the inputs, evaluates them with the pure
 * rules (audit-engine-rules.ts) and completes the run, guarded by the run's state so that a job
 * resumed after a lease ran out cannot complete it twice.
 */

type Out<T extends z.ZodType> = z.infer<T>;
/** Writes of a run's findings can be many statements: more than Prisma's default 5 s. */
const LONG_TX = { timeout: 120_000, maxWait: 30_000 };

const conflict = (message: string, field: string, current: string) =>
  new ApiError('conflict', message, [{ field, issue: 'invalid_value', message: `current state: ${current}` }]);

// ---------------------------------------------------------------- rendering

/** A run's fields computed from its columns: the pinned rule set and the counts (the kit's and the hand routes'). */
const RUN_COMPUTED = {
  bundleVersions: (r: RunRow) => r.bundleVersions as Record<string, string>,
  ruleSet: (r: RunRow) => ({ id: r.ruleSetId, version: r.ruleSetVersion, hash: r.ruleSetHash }),
  counts: (r: RunRow) => (r.counts ?? null) as Out<typeof AuditRun>['counts'],
};

export const renderRun = rendererOf<RunRow>()(AuditRun, RUN_COMPUTED);

export const renderFinding = rendererOf<FindingRow>()(AuditFinding, {
  check: (r) => r.kind as Check,
  facts: (r) => r.facts as Record<string, unknown>,
});

const renderSignOff = (r: SignOffRow, findingsHashOfRun: string): Out<typeof AuditSignOff> => ({
  object: 'svc.audit_engine.sign_off',
  id: r.id,
  runId: r.runId,
  owner: { name: r.ownerName, email: r.ownerEmail, title: r.ownerTitle },
  statement: r.statement,
  signedBy: r.signedBy,
  signerRole: r.signerRole,
  findingsHash: findingsHashOfRun,
  hash: r.hash,
  createdAt: iso(r.createdAt),
});

const renderAttestation = rendererOf<AttestationRow>()(AuditAttestation, {});

// ---------------------------------------------------------------- scope

type ScopeControl = Pick<FrameworkControl, 'id' | 'title' | 'clauseRefs'>;
export interface ResolvedScope {
  controls: ScopeControl[];
  /** `system:<id>` scopes: only that system's evidence counts. */
  systemId: string | null;
}

const underClause = (ref: string, prefix: string) => ref === prefix || ref.startsWith(`${prefix}-`) || ref.startsWith(`${prefix}.`);

/**
 * The controls of a dictionary version a scope selects (see the contract for the forms). A scope
 * that selects nothing is a 422 naming `scope`: an audit of nothing is a mistake, not a pass.
 */
export async function resolveScope(shared: Tx, versionKey: string, scope: string): Promise<ResolvedScope> {
  const all = await shared.frameworkControl.findMany({
    where: { versionKey },
    select: { id: true, title: true, clauseRefs: true },
    orderBy: { id: 'asc' },
  });
  const [kind, ...rest] = scope.includes(':') ? scope.split(':') : ['', scope];
  const value = rest.join(':');
  const family = (p: string) => all.filter((c) => c.id.startsWith(`${p}-`));
  const clause = (p: string) => all.filter((c) => c.clauseRefs.some((r) => underClause(r, p)));
  let controls: ScopeControl[];
  let systemId: string | null = null;
  if (scope === 'all') controls = all;
  else if (kind === 'family') controls = family(value);
  else if (kind === 'clause') controls = clause(value);
  else if (kind === 'system') {
    if (!value) throw invalid('scope', 'A system scope names the AI system: `system:<id>`.');
    controls = all;
    systemId = value;
  } else if (kind === '') {
    controls = family(value);
    if (controls.length === 0) controls = clause(value);
  } else {
    throw invalid(
      'scope',
      `Scope kind ${kind} is not one of family, clause, system; use \`all\`, \`family:<prefix>\`, \`clause:<ref>\` or \`system:<id>\`.`,
    );
  }
  if (controls.length === 0) throw invalid('scope', `Scope ${scope} selects no control of ${versionKey}.`);
  return { controls, systemId };
}

// ---------------------------------------------------------------- schedules

const CRON_ALIASES = new Set(['@hourly', '@daily', '@weekly', '@monthly', '@yearly', '@annually', '@weekdays', '@weekends']);

/** The first due time strictly after `after`; a cron expression the parser refuses is a 422. */
export function nextDue(cron: string, after: Date): Date {
  const trimmed = cron.trim();
  // Five fields (or a named alias): the parser also reads a seconds field, which schedules do not offer.
  if (!CRON_ALIASES.has(trimmed) && trimmed.split(/\s+/).length !== 5) {
    throw invalid(
      'cron',
      'A cron expression has five fields (minute hour day-of-month month day-of-week), or is @hourly, @daily, @weekly, @monthly or @yearly.',
    );
  }
  try {
    return CronExpressionParser.parse(trimmed, { currentDate: after, tz: 'UTC' }).next().toDate();
  } catch (err) {
    throw invalid('cron', `The cron expression is not valid: ${(err as Error).message}.`);
  }
}

const tickKey = (scheduleId: string, due: Date) => `${scheduleId}@${due.toISOString()}`;

/** Enqueues the tick of a schedule's due time; a due time already enqueued adds nothing. */
export function enqueueTick(tx: Tx, tenantId: string, scheduleId: string, due: Date) {
  return enqueueJob(tx, {
    tenantId,
    kind: 'audit.schedule_tick',
    payload: { scheduleId, dueAt: due.toISOString() },
    runAt: due,
    dedupeKey: tickKey(scheduleId, due),
  });
}

async function frameworkVersionKey(shared: Tx, framework: string): Promise<string> {
  const fw = await shared.framework.findUnique({ where: { id: framework }, select: { latestVersion: true } });
  if (!fw) throw invalid('framework', `Framework ${framework} is not a dictionary of the service.`);
  return `${framework}@${fw.latestVersion}`;
}

/**
 * The kit's store of audit schedules (contract: `auditSchedules`). A paused or deleted schedule
 * keeps its queued tick, which finds it not active and starts nothing; resuming enqueues the first
 * due time after now that no tick has handled yet.
 */
export const scheduleStore: Store<typeof auditSchedules> = {
  model: 'auditSchedule',
  // A schedule that is not active has no next due time, whatever tick is still queued.
  computed: { nextRunAt: (r: ScheduleRow) => (r.status === 'active' ? isoOrNull(r.nextRunAt) : null) },
  create: async ({ shared, who, body }) => {
    const versionKey = await frameworkVersionKey(shared, body.framework);
    await resolveScope(shared, versionKey, body.scope);
    const nextRunAt = nextDue(body.cron, new Date());
    return { framework: body.framework, scope: body.scope, cron: body.cron.trim(), status: 'active', nextRunAt, createdBy: who.actor };
  },
  auditData: (r) => ({ framework: r.framework, scope: r.scope, cron: r.cron, nextRunAt: r.nextRunAt }),
  afterCreate: ({ tx, who, record }) => enqueueTick(tx, who.tenantId, record.id, new Date(record.nextRunAt as string)),
  transitions: {
    resume: {
      set: (row: ScheduleRow, now) => ({ nextRunAt: nextDue(row.cron, new Date(Math.max(now.getTime(), row.lastDueAt?.getTime() ?? 0))) }),
      auditData: (r) => ({ nextRunAt: r.nextRunAt }),
      after: ({ tx, who, record }) => enqueueTick(tx, who.tenantId, record.id, new Date(record.nextRunAt as string)),
    },
  },
};

// ---------------------------------------------------------------- starting a run

export interface PreparedRun {
  framework: string;
  versionKey: string;
  scope: string;
  controls: number;
  bundle: { hash: string; versions: Record<string, string> };
}

/**
 * Checks a run can start (framework known and activated, scope selecting controls of the
 * activated version) and pins the tenant's bundle. A 422 names the field at fault.
 */
export async function prepareRun(prisma: Prisma, who: Actor, framework: string, scope: string): Promise<PreparedRun> {
  await frameworkVersionKey(prisma, framework);
  const activation = await scopeToTenant(prisma, who.tenantId).frameworkActivation.findFirst({ where: { frameworkId: framework } });
  if (!activation) {
    throw invalid(
      'framework',
      `Framework ${framework} is not activated for this tenant: activate it with POST /v1/frameworks/${framework}/activate.`,
    );
  }
  const { controls } = await resolveScope(prisma, activation.versionKey, scope);
  const pinned = await getBundleHash(prisma, who);
  return {
    framework,
    versionKey: activation.versionKey,
    scope,
    controls: controls.length,
    bundle: { hash: pinned.hash, versions: pinned.versions },
  };
}

/** Writes a prepared run, its job and its audit event in the caller's transaction. */
export async function insertRun(tx: Tx, who: Actor, p: PreparedRun, scheduleId: string | null): Promise<Out<typeof AuditRun>> {
  const { rules, hash } = auditRules();
  const now = new Date();
  const id = newId('aer');
  const row = await scopeToTenant(tx, who.tenantId).auditRun.create({
    data: {
      id,
      tenantId: who.tenantId,
      framework: p.framework,
      dictionaryVersion: p.versionKey,
      scope: p.scope,
      scheduleId,
      status: 'running',
      bundleHash: p.bundle.hash,
      bundleVersions: p.bundle.versions,
      ruleSetId: rules.id,
      ruleSetVersion: rules.version,
      ruleSetHash: hash,
      asOf: now,
      controls: p.controls,
      estimatedCompletion: estimateCompletion(now, p.controls, rules),
      correlationId: who.correlationId,
      createdBy: who.actor,
      createdAt: now,
      updatedAt: now,
    },
  });
  await enqueueJob(tx, { tenantId: who.tenantId, kind: 'audit.run', payload: { runId: id }, dedupeKey: `run:${id}` });
  const out = renderRun(row);
  await recordChange(tx, {
    ...who,
    action: 'audit.run_started',
    resourceType: 'svc.audit_engine.run',
    resourceId: id,
    data: {
      framework: out.framework,
      dictionaryVersion: out.dictionaryVersion,
      scope: out.scope,
      scheduleId,
      controls: out.controls,
      bundleHash: out.bundleHash,
      ruleSet: `${rules.id}@${rules.version}`,
    },
    resource: out,
  });
  return out;
}

export async function startRun(prisma: Prisma, who: Actor, body: Out<typeof StartAuditRunBody>): Promise<Out<typeof AuditRunAccepted>> {
  const prepared = await prepareRun(prisma, who, body.framework, body.scope);
  const run = await prisma.$transaction((tx) => insertRun(tx, who, prepared, null));
  return {
    runId: run.id,
    status: 'running',
    estimatedCompletion: run.estimatedCompletion,
    framework: run.framework,
    dictionaryVersion: run.dictionaryVersion,
    scope: run.scope,
    controls: run.controls,
  };
}

// ---------------------------------------------------------------- evaluating a run (the job)

/**
 * The inputs of a run, read as of its `asOf`: records made after the run started are left out,
 * so a job resumed later (after a restart) evaluates exactly what the request would have. The
 * gap analysis is the latest of the framework approved by then (approval freezes its answers).
 */
export async function gatherInputs(prisma: Prisma, run: RunRow): Promise<AuditInputs> {
  const db = scopeToTenant(prisma, run.tenantId);
  const { controls, systemId } = await resolveScope(prisma, run.dictionaryVersion, run.scope);
  const controlIds = controls.map((c) => c.id);
  const [obligations, evidence, attestations, gaps] = await Promise.all([
    db.obligation.findMany({
      where: { versionKey: run.dictionaryVersion, status: { not: 'not_applicable' } },
      select: { sourceRef: true, title: true, clauseRef: true, dueDate: true },
    }),
    db.evidence.findMany({
      where: { controlIds: { hasSome: controlIds }, createdAt: { lte: run.asOf }, ...(systemId ? { systemId } : {}) },
      select: { id: true, kind: true, controlIds: true, collectedAt: true, expiresAt: true },
    }),
    db.attestation.findMany({
      where: { subjectType: 'control', subjectId: { in: controlIds }, createdAt: { lte: run.asOf } },
      select: { id: true, subjectId: true, attestedAt: true },
    }),
    latestApprovedGaps(db, [run.framework], { asOf: run.asOf, systemId }),
  ]);
  const gap = gaps.get(run.framework);
  const relevant = new Set(controls.flatMap((c) => c.clauseRefs));
  const byId = <T extends { id: string }>(xs: T[]) => xs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    asOf: run.asOf.toISOString(),
    framework: run.framework,
    dictionaryVersion: run.dictionaryVersion,
    scope: run.scope,
    controls: byId(controls.map((c) => ({ id: c.id, title: c.title, clauseRefs: [...c.clauseRefs] }))),
    obligations: byId(
      obligations
        .filter((o) => relevant.has(o.clauseRef))
        .map((o) => ({ id: o.sourceRef, title: o.title, clauseRef: o.clauseRef, applicableFrom: o.dueDate.toISOString() })),
    ),
    evidence: byId(
      evidence.map((e) => ({
        id: e.id,
        kind: e.kind,
        // Only the controls in scope: the stored inputs stay about this run.
        controlIds: e.controlIds.filter((c) => controlIds.includes(c)).sort(),
        collectedAt: e.collectedAt.toISOString(),
        expiresAt: e.expiresAt ? e.expiresAt.toISOString() : null,
      })),
    ),
    attestations: byId(attestations.map((a) => ({ id: a.id, controlId: a.subjectId, attestedAt: a.attestedAt.toISOString() }))),
    gapAnalysis: gap
      ? {
          assessmentId: gap.assessmentId,
          systemId: gap.systemId,
          dictionaryVersion: gap.dictionaryVersion,
          approvedAt: gap.approvedAt.toISOString(),
          // Only the controls in scope, as for the evidence.
          requirements: controlIds
            .filter((c) => gap.statuses.has(c))
            .sort()
            .map((c) => ({ controlId: c, status: gap.statuses.get(c) as string })),
        }
      : null,
  };
}

const runActor = (run: RunRow): Actor => ({ tenantId: run.tenantId, actor: run.createdBy, correlationId: run.correlationId });

/** Evaluates a running run and completes it; nothing happens to a run in any other state. */
export async function executeRun(prisma: Prisma, tenantId: string, runId: string): Promise<void> {
  const run = await scopeToTenant(prisma, tenantId).auditRun.findFirst({ where: { id: runId } });
  if (run?.status !== 'running') return;
  const { rules, hash } = auditRules();
  const inputs = await gatherInputs(prisma, run);
  const findings = evaluate(inputs, rules);
  const counts = countsOf(inputs.controls.length, findings);
  const fHash = findingsHash(findings);
  const who = runActor(run);
  await prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, tenantId);
    const now = new Date();
    // Guarded by the state: of two processes that both evaluated it (a lease that ran out), one completes it.
    const res = await db.auditRun.updateMany({
      where: { id: runId, status: 'running' },
      data: {
        status: 'completed',
        inputs: inputs as object,
        counts,
        findingsHash: fHash,
        ruleSetId: rules.id,
        ruleSetVersion: rules.version,
        ruleSetHash: hash,
        controls: inputs.controls.length,
        completedAt: now,
        updatedAt: now,
      },
    });
    if (res.count === 0) return;
    const rows = findings.map((f) => ({
      id: newId('aef'),
      tenantId,
      runId,
      controlId: f.controlId,
      kind: f.check,
      severity: f.severity,
      status: 'open',
      title: f.title,
      facts: f.facts as object,
      createdAt: now,
      updatedAt: now,
    }));
    if (rows.length > 0) await db.auditFinding.createMany({ data: rows });
    const out = renderRun((await db.auditRun.findFirst({ where: { id: runId } })) as RunRow);
    await recordChange(tx, {
      ...who,
      action: 'audit.run_completed',
      resourceType: 'svc.audit_engine.run',
      resourceId: runId,
      data: { from: 'running', to: 'completed', counts, findingsHash: fHash },
      resource: out,
    });
    for (const r of rows) {
      await recordChange(tx, {
        ...who,
        action: 'audit.finding_opened',
        resourceType: 'svc.audit_engine.finding',
        resourceId: r.id,
        data: { runId, controlId: r.controlId, check: r.kind, severity: r.severity },
        resource: renderFinding({ ...r, resolution: null, resolvedBy: null, resolvedAt: null } as FindingRow),
      });
    }
  }, LONG_TX);
}

/** After the job's last attempt: the run is `failed` with the reason, and that is audited. */
export async function failRun(prisma: Prisma, tenantId: string, runId: string, error: string): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, tenantId);
    const now = new Date();
    const res = await db.auditRun.updateMany({
      where: { id: runId, status: 'running' },
      data: { status: 'failed', error: error.slice(0, 1000), completedAt: now, updatedAt: now },
    });
    if (res.count === 0) return;
    const run = (await db.auditRun.findFirst({ where: { id: runId } })) as RunRow;
    await recordChange(tx, {
      ...runActor(run),
      action: 'audit.run_completed',
      resourceType: 'svc.audit_engine.run',
      resourceId: runId,
      data: { from: 'running', to: 'failed', error: run.error },
      resource: renderRun(run),
    });
  });
}

// ---------------------------------------------------------------- the tick of a schedule

/**
 * One due time of a schedule: starts its run (when the schedule is still active and its framework
 * activated) and enqueues the next due time, in one transaction. The schedule's `lastDueAt` is
 * moved conditionally, so a tick run twice starts one run.
 */
export async function scheduleTick(prisma: Prisma, tenantId: string, scheduleId: string, dueAt: Date): Promise<void> {
  const schedule = await scopeToTenant(prisma, tenantId).auditSchedule.findFirst({ where: { id: scheduleId } });
  if (schedule?.status !== 'active') return;
  if (schedule.lastDueAt && schedule.lastDueAt >= dueAt) return;
  const who: Actor = { tenantId, actor: schedule.createdBy, correlationId: `${scheduleId}@${dueAt.toISOString()}` };
  let prepared: PreparedRun | undefined;
  let error: string | null = null;
  try {
    prepared = await prepareRun(prisma, who, schedule.framework, schedule.scope);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    error = err.message;
  }
  // The next due time after both the due time and now: a schedule resumed late skips the missed ones.
  const next = nextDue(schedule.cron, new Date(Math.max(dueAt.getTime(), Date.now())));
  await prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, tenantId);
    const moved = await db.auditSchedule.updateMany({
      where: { id: scheduleId, status: 'active', OR: [{ lastDueAt: null }, { lastDueAt: { lt: dueAt } }] },
      data: { lastDueAt: dueAt, nextRunAt: next, lastError: error, updatedAt: new Date() },
    });
    if (moved.count === 0) return;
    if (prepared) {
      const run = await insertRun(tx, who, prepared, scheduleId);
      await db.auditSchedule.updateMany({ where: { id: scheduleId }, data: { lastRunId: run.id } });
    }
    await enqueueTick(tx, tenantId, scheduleId, next);
  });
}

// ---------------------------------------------------------------- reads

/** Runs as the kit lists and gets them. */
export const runStore: Store<typeof auditRuns> = { model: 'auditRun', computed: RUN_COMPUTED };

const runRow = (db: Tx, id: string): Promise<RunRow> => orNotFound(db.auditRun.findFirst({ where: { id } }), 'Audit run', id);

export function listFindings(
  prisma: Prisma,
  tenantId: string,
  query: { limit: number; cursor?: string; runId?: string; severity?: string; status?: string; controlId?: string; check?: string },
) {
  return keysetList(scopeToTenant(prisma, tenantId).auditFinding, query, {
    filters: ['runId', 'severity', 'status', 'controlId', 'check'],
    filterWhere: { check: (v) => ({ kind: v }) },
    render: (r) => renderFinding(r as unknown as FindingRow),
  });
}

export async function getFinding(prisma: Prisma, tenantId: string, id: string) {
  return renderFinding(await orNotFound(scopeToTenant(prisma, tenantId).auditFinding.findFirst({ where: { id } }), 'Audit finding', id));
}

export async function resolveFinding(prisma: Prisma, who: Actor, body: Out<typeof ResolveAuditFindingBody>) {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await orNotFound(db.auditFinding.findFirst({ where: { id: body.findingId } }), 'Audit finding', body.findingId);
    const refuse = () => conflict(`Audit finding ${row.id} is ${row.status}; resolve is allowed from open.`, 'status', row.status);
    if (row.status !== 'open') throw refuse();
    const now = new Date();
    const res = await db.auditFinding.updateMany({
      where: { id: row.id, status: 'open' },
      data: { status: 'resolved', resolution: body.resolution, resolvedBy: who.actor, resolvedAt: now, updatedAt: now },
    });
    if (res.count === 0) throw refuse();
    const out = renderFinding((await db.auditFinding.findFirst({ where: { id: row.id } })) as FindingRow);
    const data = { from: 'open', to: 'resolved', runId: row.runId, controlId: row.controlId, resolution: body.resolution };
    return recorded(tx, who, out, { action: 'audit.finding_resolved', data });
  });
}

// ---------------------------------------------------------------- replay

const EVALUATED: readonly string[] = ['completed', 'attested'];

export async function replayRun(prisma: Prisma, who: Actor, runId: string): Promise<Out<typeof AuditRunReplay>> {
  const db = scopeToTenant(prisma, who.tenantId);
  const run = await runRow(db, runId);
  if (!EVALUATED.includes(run.status) || !run.inputs || !run.findingsHash) {
    throw conflict(`Audit run ${runId} is ${run.status}; only a completed or attested run can be replayed.`, 'status', run.status);
  }
  const { rules, hash } = auditRules();
  const replayed = evaluate(run.inputs as unknown as AuditInputs, rules);
  const replayedHash = findingsHash(replayed);
  const stored = await db.auditFinding.findMany({ where: { runId }, orderBy: { id: 'asc' } });
  const key = (f: { controlId: string; check: string }) => `${f.controlId}|${f.check}`;
  const storedBy = new Map(stored.map((f) => [key({ controlId: f.controlId, check: f.kind }), f]));
  const replayedBy = new Map(replayed.map((f) => [key(f), f]));
  const keys = [...new Set([...storedBy.keys(), ...replayedBy.keys()])].sort();
  const divergences = keys.flatMap((k) => {
    const s = storedBy.get(k);
    const r = replayedBy.get(k);
    const same = s && r && s.severity === r.severity && canonicalHash(s.facts) === canonicalHash(r.facts);
    if (same) return [];
    const [controlId = '', check = ''] = k.split('|');
    return [
      {
        controlId,
        check: check as Check,
        stored: (s?.severity ?? null) as EvaluatedFinding['severity'] | null,
        replayed: r?.severity ?? null,
      },
    ];
  });
  const out: Out<typeof AuditRunReplay> = {
    object: 'svc.audit_engine.replay',
    runId,
    matched: replayedHash === run.findingsHash,
    storedHash: run.findingsHash,
    replayedHash,
    ruleSet: {
      stored: `${run.ruleSetId}@${run.ruleSetVersion}`,
      current: `${rules.id}@${rules.version}`,
      sameHash: run.ruleSetHash === hash,
    },
    dictionaryVersion: run.dictionaryVersion,
    asOf: iso(run.asOf),
    findings: replayed.length,
    divergences,
  };
  await prisma.$transaction((tx) =>
    recordChange(tx, {
      ...who,
      action: 'audit.run_replayed',
      resourceType: 'svc.audit_engine.run',
      resourceId: runId,
      data: { matched: out.matched, storedHash: out.storedHash, replayedHash, divergences: divergences.length },
      resource: out,
    }),
  );
  return out;
}

// ---------------------------------------------------------------- sign-off and attestation

export async function signOff(
  prisma: Prisma,
  who: PersonActor & { role: string },
  body: Out<typeof SignOffAuditRunBody>,
): Promise<Out<typeof AuditSignOff>> {
  try {
    return await prisma.$transaction(async (tx) => {
      const db = scopeToTenant(tx, who.tenantId);
      // The owner who signs is the person the key acts for: their name and email, not the body's.
      const person = await actingPerson(tx, who, 'owner', undefined, 'sign an audit run off');
      if (person.status !== 'active') {
        throw new ApiError('forbidden', `Person ${person.id} is ${person.status} and cannot sign an audit run off.`, [
          { field: 'authorization', issue: 'inactive_person' },
        ]);
      }
      if (body.owner && body.owner.email.toLowerCase() !== person.email.toLowerCase()) {
        throw new ApiError(
          'forbidden',
          `This API key acts for ${person.id} (${person.email}); owner names ${body.owner.email}. An owner signs off only as themselves: leave owner out or give their own email.`,
          [{ field: 'owner.email', issue: 'not_acting_person', message: `the credential acts for ${person.id}` }],
        );
      }
      const run = await runRow(db, body.runId);
      if (run.signOffId) throw conflict(`Audit run ${run.id} is already signed off (${run.signOffId}).`, 'runId', run.status);
      if (run.status !== 'completed' || !run.findingsHash) {
        throw conflict(`Audit run ${run.id} is ${run.status}; only a completed run can be signed off.`, 'status', run.status);
      }
      const now = new Date();
      const id = newId('aso');
      const owner = { name: person.name, email: person.email, title: body.owner?.title ?? null };
      const hash = canonicalHash({
        id,
        runId: run.id,
        findingsHash: run.findingsHash,
        owner,
        statement: body.statement,
        signedBy: who.actor,
        signerRole: who.role,
        signedAt: now.toISOString(),
      });
      const row = await db.auditSignOff.create({
        data: {
          id,
          tenantId: who.tenantId,
          runId: run.id,
          ownerName: owner.name,
          ownerEmail: owner.email,
          ownerTitle: owner.title,
          statement: body.statement,
          signedBy: who.actor,
          signerRole: who.role,
          hash,
          createdAt: now,
        },
      });
      const moved = await db.auditRun.updateMany({
        where: { id: run.id, status: 'completed', signOffId: null },
        data: { signOffId: id, updatedAt: now },
      });
      if (moved.count === 0) throw conflict(`Audit run ${run.id} changed during the sign-off; read it again.`, 'runId', run.status);
      const out = renderSignOff(row, run.findingsHash);
      await recordChange(tx, {
        tenantId: who.tenantId,
        actor: person.id,
        correlationId: who.correlationId,
        action: 'audit.signed_off',
        resourceType: 'svc.audit_engine.sign_off',
        resourceId: id,
        data: { runId: run.id, owner, signerRole: who.role, findingsHash: run.findingsHash, hash, credentialId: who.actor },
        resource: out,
      });
      return out;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`Audit run ${body.runId} is already signed off.`, 'runId', 'completed');
    throw err;
  }
}

/** What the attestation's run hash covers: the pinned content, the inputs and the outcome, not the mutable timestamps. */
const runForHash = (r: RunRow) => ({
  id: r.id,
  framework: r.framework,
  dictionaryVersion: r.dictionaryVersion,
  scope: r.scope,
  scheduleId: r.scheduleId,
  bundleHash: r.bundleHash,
  bundleVersions: r.bundleVersions,
  ruleSet: { id: r.ruleSetId, version: r.ruleSetVersion, hash: r.ruleSetHash },
  asOf: r.asOf.toISOString(),
  inputs: r.inputs,
  counts: r.counts,
  findingsHash: r.findingsHash,
  completedAt: isoOrNull(r.completedAt),
});

export async function attestRun(prisma: Prisma, who: Actor, body: Out<typeof AttestAuditRunBody>): Promise<Out<typeof AuditAttestation>> {
  try {
    return await prisma.$transaction(async (tx) => {
      const db = scopeToTenant(tx, who.tenantId);
      const run = await runRow(db, body.runId);
      if (run.status === 'attested')
        throw conflict(`Audit run ${run.id} is already attested (${run.attestationId}).`, 'status', run.status);
      if (run.status !== 'completed') {
        throw conflict(`Audit run ${run.id} is ${run.status}; only a completed, signed-off run can be attested.`, 'status', run.status);
      }
      const signed = run.signOffId ? await db.auditSignOff.findFirst({ where: { id: run.signOffId } }) : null;
      if (!signed) throw conflict(`Audit run ${run.id} is not signed off; POST /v1/audit-engine/sign-off first.`, 'signOff', 'completed');
      const findings = await db.auditFinding.findMany({ where: { runId: run.id }, orderBy: { id: 'asc' } });
      const now = new Date();
      const id = newId('aat');
      const runHash = canonicalHash(runForHash(run));
      const allFindingsHash = canonicalHash(
        findings.map((f) => ({ id: f.id, controlId: f.controlId, check: f.kind, severity: f.severity, status: f.status, facts: f.facts })),
      );
      const hash = canonicalHash({
        id,
        runId: run.id,
        runHash,
        findingsHash: allFindingsHash,
        signOffHash: signed.hash,
        statement: body.statement,
        attestedBy: who.actor,
        attestedAt: now.toISOString(),
      });
      const moved = await db.auditRun.updateMany({
        where: { id: run.id, status: 'completed' },
        data: { status: 'attested', attestationId: id, attestedAt: now, updatedAt: now },
      });
      if (moved.count === 0) throw conflict(`Audit run ${run.id} changed during the attestation; read it again.`, 'status', run.status);
      const row = await db.auditAttestation.create({
        data: {
          id,
          tenantId: who.tenantId,
          runId: run.id,
          signOffId: signed.id,
          statement: body.statement,
          attestedBy: who.actor,
          runHash,
          findingsHash: allFindingsHash,
          signOffHash: signed.hash,
          hash,
          createdAt: now,
        },
      });
      const data = {
        runId: run.id,
        from: 'completed',
        to: 'attested',
        runHash,
        findingsHash: allFindingsHash,
        signOffHash: signed.hash,
        hash,
      };
      return recorded(tx, who, renderAttestation(row), { action: 'audit.attested', data });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`Audit run ${body.runId} is already attested.`, 'status', 'attested');
    throw err;
  }
}
