import { createHash } from 'node:crypto';
import {
  ASSESSMENT_TYPE_IDS,
  type AssessmentType,
  contract,
  type DemoTour,
  EVIDENCE_KINDS,
  type Evidence,
  type SeedEvidenceResult,
  type SeedFrameworksResult,
  type SeedReset,
  type SeedTenantResult,
} from '@svc/contract';
import { z } from 'zod';
import type { Database, Tx } from '../../db/client.ts';
import { sqlOf } from '../../db/sql.ts';
import { scopeToTenant, tenantModels } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type { Evidence as EvidenceRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { HOLD_TYPES, heldIds, modelOf } from '../../platform/ledger/hold-guard.ts';
import { assessmentStore, renderAssessment } from '../compliance/assessment-work.ts';
import { evidenceStore } from '../compliance/service.ts';
import { activateFramework } from '../frameworks/service.ts';

type Prisma = Database['prisma'];

/**
 * The demo content's own data, checked at load: the systems demo records concern, the
 * frameworks activated by default, which assessment type suits which framework, and how each
 * kind of evidence artefact is stored.
 */
const DemoData = z.object({
  defaultFrameworks: z.array(z.string().min(1)).min(1),
  systems: z
    .array(
      z.object({
        id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/),
        title: z.string().min(1),
        jurisdiction: z.string().regex(/^[a-z]{2,12}\/[a-z]{2}$/),
      }),
    )
    .min(1),
  assessmentTypeByFramework: z.record(z.string(), z.enum(ASSESSMENT_TYPE_IDS)),
  fallbackAssessmentType: z.enum(ASSESSMENT_TYPE_IDS),
  artefacts: z
    .array(
      z.object({
        kind: z.enum(EVIDENCE_KINDS),
        label: z.string().min(1),
        mediaType: z.string(),
        extension: z.string(),
        validDays: z.int().positive(),
      }),
    )
    .min(1),
});

const DEMO = DemoData.parse({
  defaultFrameworks: ['eu-ai-act', 'gdpr'],
  systems: [
    { id: 'sys_credit_scoring_v2', title: 'Credit-scoring model', jurisdiction: 'eu/de' },
    { id: 'sys_cv_screening', title: 'CV-screening assistant', jurisdiction: 'eu/fr' },
    { id: 'sys_support_chatbot', title: 'Customer-support chatbot', jurisdiction: 'eu/nl' },
  ],
  assessmentTypeByFramework: { 'eu-ai-act': 'fria', gdpr: 'dpia', 'uk-gdpr': 'dpia', lgpd: 'dpia', 'india-dpdp': 'dpia' },
  fallbackAssessmentType: 'conformity',
  artefacts: [
    { kind: 'policy', label: 'Policy', mediaType: 'application/pdf', extension: 'pdf', validDays: 365 },
    { kind: 'report', label: 'Report', mediaType: 'application/pdf', extension: 'pdf', validDays: 180 },
    { kind: 'configuration', label: 'Configuration export', mediaType: 'application/json', extension: 'json', validDays: 90 },
    { kind: 'log', label: 'Log extract', mediaType: 'text/plain', extension: 'log', validDays: 30 },
    { kind: 'test-result', label: 'Test results', mediaType: 'application/json', extension: 'json', validDays: 90 },
  ],
});

/**
 * Rows a reset keeps: the audit trail (its events, chain head and verification records), the
 * event index (append-only like the audit trail, refused by a database trigger, and each row
 * points at its audit event), the agents' decisions (the trail's replay re-executes them), the API
 * keys and the web application's people, sign-in links and sessions (a reset must not lock them out).
 */
const KEPT_ON_RESET = new Set([
  'auditEvent',
  'auditChainHead',
  'auditVerification',
  'eventIndexRow',
  'agentDecision',
  'apiKey',
  'webUser',
  'webSignInLink',
  'webSession',
]);

const DAY = 86_400_000;

export async function seedFrameworks(
  prisma: Prisma,
  who: Actor,
  frameworks: readonly string[] = DEMO.defaultFrameworks,
): Promise<z.infer<typeof SeedFrameworksResult>> {
  const activations = [];
  for (const ref of [...new Set(frameworks)]) activations.push((await activateFramework(prisma, { ...who, ref })).activation);
  const fresh = activations.filter((a) => !a.alreadyActive);
  return {
    object: 'svc.seed.frameworks',
    activations,
    activated: fresh.length,
    alreadyActive: activations.length - fresh.length,
    obligations: fresh.reduce((n, a) => n + a.obligations, 0),
  };
}

/** The controls of the tenant's activated framework versions, interleaved across frameworks, in dictionary order. */
async function activatedControls(prisma: Prisma, tenantId: string) {
  const activations = await scopeToTenant(prisma, tenantId).frameworkActivation.findMany({
    select: { frameworkId: true, versionKey: true },
    orderBy: { frameworkId: 'asc' },
  });
  const perFramework = await Promise.all(
    activations.map((a) =>
      prisma.frameworkControl.findMany({
        where: { versionKey: a.versionKey },
        orderBy: { ord: 'asc' },
        select: { id: true, title: true, versionKey: true },
      }),
    ),
  );
  const out: { id: string; title: string; versionKey: string }[] = [];
  const longest = Math.max(0, ...perFramework.map((c) => c.length));
  for (let i = 0; i < longest; i++) for (const list of perFramework) if (list[i]) out.push(list[i] as (typeof list)[number]);
  return out;
}

export async function seedEvidence(
  prisma: Prisma,
  who: Actor,
  opts: { count?: number; systemIds?: readonly string[] } = {},
): Promise<z.infer<typeof SeedEvidenceResult>> {
  const count = opts.count ?? 10;
  const systems = opts.systemIds ?? DEMO.systems.map((s) => s.id);
  const controls = await activatedControls(prisma, who.tenantId);
  if (controls.length === 0) {
    throw new ApiError('conflict', 'The tenant has no activated framework to cite; call POST /v1/seed/frameworks first.', [
      { field: 'frameworks', issue: 'missing', message: 'no activated framework' },
    ]);
  }
  // Continue after the evidence already there, so a second call cites the next controls.
  const existing = await scopeToTenant(prisma, who.tenantId).evidence.count();
  const now = Date.now();
  const rows: Array<{ id: string; data: Record<string, unknown> }> = [];
  for (let i = 0; i < count; i++) {
    const n = existing + i;
    const control = controls[n % controls.length] as (typeof controls)[number];
    const artefact = DEMO.artefacts[n % DEMO.artefacts.length] as (typeof DEMO.artefacts)[number];
    const systemId = systems[n % systems.length] as string;
    const collectedAt = new Date(now - ((n % 28) + 1) * DAY);
    const uri = `https://demo.example.com/evidence/${systemId}/${control.id.toLowerCase()}-${n + 1}.${artefact.extension}`;
    const id = newId('evd');
    const data = await evidenceStore.create?.({
      db: scopeToTenant(prisma, who.tenantId),
      shared: prisma,
      sql: sqlOf(prisma),
      // The demo data is the seeding key's act, not a person's.
      who: { ...who, personId: null },
      id,
      body: {
        title: `${artefact.label}: ${control.title}`.slice(0, 200),
        kind: artefact.kind,
        description: `Demo evidence for control ${control.id} (${control.versionKey}) on system ${systemId}.`,
        uri,
        sha256: createHash('sha256').update(`${who.tenantId}:${uri}`).digest('hex'),
        mediaType: artefact.mediaType,
        sizeBytes: 4096 + ((n * 7919) % 250_000),
        systemId,
        controlIds: [control.id],
        collectedAt: collectedAt.toISOString(),
        expiresAt: new Date(collectedAt.getTime() + artefact.validDays * DAY).toISOString(),
      },
    });
    if (!data) throw new Error('the evidence store has no create');
    rows.push({ id, data });
  }
  const evidence = await prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const out: z.infer<typeof Evidence>[] = [];
    for (const r of rows) {
      const row = await db.evidence.create({ data: { ...(r.data as object), id: r.id, tenantId: who.tenantId } as never });
      const record = evidenceStore.render(row as EvidenceRow as never);
      await recordChange(tx, {
        ...who,
        action: 'evidence.uploaded',
        resourceType: 'svc.compliance.evidence',
        resourceId: record.id,
        data: evidenceStore.auditData?.(record) ?? {},
        resource: record,
      });
      out.push(record);
    }
    return out;
  });
  return { object: 'svc.seed.evidence', created: evidence.length, evidence };
}

async function seedAssessments(prisma: Prisma, who: Actor, count: number, frameworks: readonly string[]) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const system = DEMO.systems[i % DEMO.systems.length] as (typeof DEMO.systems)[number];
    const framework = frameworks.length > 0 ? (frameworks[i % frameworks.length] as string) : '';
    const type: AssessmentType = DEMO.assessmentTypeByFramework[framework] ?? DEMO.fallbackAssessmentType;
    const id = newId('asm');
    const body = { type, systemId: system.id, jurisdiction: system.jurisdiction, title: `${system.title}: ${type.toUpperCase()}` };
    const data = await assessmentStore.create?.({
      db: scopeToTenant(prisma, who.tenantId),
      shared: prisma,
      sql: sqlOf(prisma),
      who: { ...who, personId: null },
      id,
      body,
    });
    if (!data) throw new Error('the assessment store has no create');
    const record = await prisma.$transaction(async (tx) => {
      const row = await scopeToTenant(tx, who.tenantId).assessment.create({
        data: { ...(data as object), id, tenantId: who.tenantId } as never,
      });
      const rec = renderAssessment(row);
      await recordChange(tx, {
        ...who,
        action: 'assessment.created',
        resourceType: 'svc.compliance.assessment',
        resourceId: id,
        data: assessmentStore.auditData?.(rec) ?? {},
        resource: rec,
      });
      return rec;
    });
    out.push(record);
  }
  return out;
}

export async function seedTenant(
  prisma: Prisma,
  who: Actor,
  opts: { frameworks?: readonly string[]; assessments?: number; evidence?: number },
): Promise<z.infer<typeof SeedTenantResult>> {
  const frameworks = await seedFrameworks(prisma, who, opts.frameworks ?? DEMO.defaultFrameworks);
  const assessments = await seedAssessments(
    prisma,
    who,
    opts.assessments ?? 3,
    frameworks.activations.map((a) => a.framework),
  );
  const evidenceCount = opts.evidence ?? 12;
  const evidence: z.infer<typeof SeedEvidenceResult> =
    evidenceCount > 0
      ? await seedEvidence(prisma, who, { count: evidenceCount })
      : { object: 'svc.seed.evidence', created: 0, evidence: [] };
  const result = { object: 'svc.seed.tenant' as const, tenantId: who.tenantId, frameworks, assessments, evidence };
  await prisma.$transaction((tx) =>
    recordChange(tx, {
      ...who,
      action: 'seed.tenant_seeded',
      resourceType: 'svc.seed.tenant',
      resourceId: who.tenantId,
      data: {
        frameworks: frameworks.activations.map((a) => a.dictionaryVersion),
        assessments: assessments.length,
        evidence: evidence.created,
      },
      resource: result,
    }),
  );
  return result;
}

/** Prisma delegate name to its generic deleteMany. */
type Deletable = { deleteMany(args?: object): Promise<{ count: number }> };
type Countable = { count(args?: object): Promise<number> };

/** The litigation_hold rail's tables: a reset keeps them whole (holds, custodians, log, exports). */
const HOLD_TABLES = new Set(['legalHold', 'legalHoldCustodian', 'legalHoldLogEntry', 'legalHoldExport']);

/** Per model (delegate name), the ids of the tenant's records under an active legal hold. */
async function heldOnReset(tx: Tx, tenantId: string): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const type of HOLD_TYPES) {
    const m = modelOf(type);
    if (!m) continue;
    const ids = await heldIds(tx, tenantId, type);
    if (ids.size === 0) continue;
    const set = out.get(m.delegate) ?? new Set<string>();
    for (const id of ids) set.add(id);
    out.set(m.delegate, set);
  }
  return out;
}

/**
 * Deletes every row the tenant owns except the audit trail, the event index and the API keys, in
 * one transaction, and records the reset (with the counts) in the audit trail. The reset's own
 * audit event gets no event-index row (nor agent dispatches), so nothing the reset writes is
 * counted by the next one. Legal holds survive it: the hold tables are kept whole, and so is every
 * record an active hold covers; the result says what was kept (`keptUnderLegalHold`, per model).
 */
export async function resetTenant(prisma: Prisma, who: Actor): Promise<z.infer<typeof SeedReset>> {
  const models = [...tenantModels].filter((m) => !KEPT_ON_RESET.has(m)).sort();
  return prisma.$transaction(async (tx: Tx) => {
    const db = scopeToTenant(tx, who.tenantId) as unknown as Record<string, Deletable>;
    const tables: Record<string, number> = {};
    let deletedRecords = 0;
    // Legal holds: the hold tables stay, and so does every record an active hold covers.
    const held = await heldOnReset(tx, who.tenantId);
    const kept: Record<string, number> = {};
    for (const model of models) {
      if (HOLD_TABLES.has(model)) {
        const count = await (db[model] as unknown as Countable).count();
        if (count > 0) kept[model] = count;
        continue;
      }
      const ids = held.get(model);
      const { count } = await (db[model] as Deletable).deleteMany(ids?.size ? { where: { id: { notIn: [...ids] } } } : {});
      if (ids?.size) {
        const left = await (db[model] as unknown as Countable).count();
        if (left > 0) kept[model] = left;
      }
      if (count > 0) tables[model] = count;
      deletedRecords += count;
    }
    const auditEventId = newId('aud');
    const result = {
      status: 'reset' as const,
      deletedRecords,
      tables,
      auditEventId,
      ...(Object.keys(kept).length > 0 ? { keptUnderLegalHold: kept } : {}),
    };
    await recordChange(
      tx,
      {
        ...who,
        action: 'seed.reset',
        resourceType: 'svc.seed.reset',
        resourceId: who.tenantId,
        data: { deletedRecords, tables, ...(Object.keys(kept).length > 0 ? { keptUnderLegalHold: kept } : {}) },
        resource: result,
      },
      { index: false, auditId: auditEventId },
    );
    return result;
  });
}

type TourStep = z.infer<typeof DemoTour>['steps'][number];
type Route = { method: string; path: string };

const fill = (route: Route, params: Record<string, string> = {}) =>
  route.path.replace(/:([A-Za-z]+)/g, (_, k: string) => encodeURIComponent(params[k] ?? `{${k}}`));

/**
 * The walkthrough: each step a real route of the contract (method and path read from it), its
 * body built from the tenant's data, and `done` read from the tenant's rows.
 */
export async function demoTour(prisma: Prisma, tenantId: string): Promise<z.infer<typeof DemoTour>> {
  const db = scopeToTenant(prisma, tenantId);
  const [activation, assessments, started, evidence, attestations, audit] = await Promise.all([
    db.frameworkActivation.findFirst({ orderBy: { createdAt: 'asc' }, select: { frameworkId: true, versionKey: true } }),
    db.assessment.count(),
    db.assessment.count({ where: { status: { not: 'draft' } } }),
    db.evidence.findFirst({ orderBy: { createdAt: 'asc' }, select: { id: true } }),
    db.attestation.count(),
    db.auditEvent.count(),
  ]);
  const framework = activation?.frameworkId ?? DEMO.defaultFrameworks[0] ?? 'eu-ai-act';
  const control = await prisma.frameworkControl.findFirst({
    where: activation ? { versionKey: activation.versionKey } : { versionKey: { startsWith: `${framework}@` } },
    orderBy: { ord: 'asc' },
    select: { id: true },
  });
  const controlId = control?.id ?? 'CONTROL-ID';
  const firstAssessment = await db.assessment.findFirst({ orderBy: { createdAt: 'asc' }, select: { id: true } });
  const system = DEMO.systems[0] as (typeof DEMO.systems)[number];
  const type = DEMO.assessmentTypeByFramework[framework] ?? DEMO.fallbackAssessmentType;
  const c = contract;
  const step = (
    key: string,
    title: string,
    route: Route,
    params: Record<string, string> | undefined,
    body: unknown,
    shows: string,
    done: boolean,
  ): Omit<TourStep, 'order'> => ({
    key,
    title,
    method: route.method as TourStep['method'],
    path: fill(route, params),
    body: route.method === 'GET' ? null : (body ?? {}),
    shows,
    done,
  });
  const steps = [
    step(
      'browse-frameworks',
      'Browse the framework dictionaries',
      c.frameworks.list,
      undefined,
      null,
      'The 24 shipped dictionaries with their versions; pick the ones that apply.',
      activation !== null,
    ),
    step(
      'activate-framework',
      `Activate ${framework}`,
      c.frameworks.activate,
      { id: framework },
      {},
      `Activating ${framework} derives the tenant's obligations from the dictionary and records it in the audit trail.`,
      activation !== null,
    ),
    step(
      'list-obligations',
      'Review the derived obligations',
      c.compliance.obligations.list,
      undefined,
      null,
      'Each obligation with its clause, duty-bearer and the date it applies from.',
      activation !== null,
    ),
    step(
      'create-assessment',
      'Start an assessment',
      c.compliance.assessments.create,
      undefined,
      { type, systemId: system.id, jurisdiction: system.jurisdiction },
      `A ${type} assessment for ${system.title} with the stages of its type.`,
      assessments > 0,
    ),
    step(
      'start-assessment',
      'Move the assessment forward',
      c.compliance.assessments.start,
      { id: firstAssessment?.id ?? 'asm_...' },
      {},
      'A state transition: the first stage goes in progress, and the change is audited and sent to webhooks.',
      started > 0,
    ),
    step(
      'record-evidence',
      'Record evidence for a control',
      c.compliance.evidence.create,
      undefined,
      { title: 'Risk-management procedure', kind: 'policy', systemId: system.id, controlIds: [controlId] },
      `Evidence linked to control ${controlId}; only controls of activated frameworks are accepted.`,
      evidence !== null,
    ),
    {
      ...step(
        'find-evidence',
        'Find the evidence of a control',
        c.compliance.evidence.list,
        undefined,
        null,
        `Every evidence record that supports control ${controlId}, through the list filter.`,
        evidence !== null,
      ),
      path: `${fill(c.compliance.evidence.list)}?controlId=${encodeURIComponent(controlId)}`,
    },
    step(
      'attest-control',
      'Attest the control',
      c.compliance.attestations.create,
      undefined,
      {
        subject: { type: 'control', id: controlId },
        statement: 'The control operated as documented this quarter.',
        attester: { name: 'Demo Auditor', email: 'auditor@example.com' },
      },
      'A signed-off statement by a named person, kept verbatim (needs an auditor or owner key).',
      attestations > 0,
    ),
    step(
      'read-audit-trail',
      'Read the audit trail',
      c.audit_trail.events,
      undefined,
      null,
      'Every change above as a hash-chained, signed event.',
      audit > 0,
    ),
    step(
      'verify-audit-trail',
      'Verify the audit trail',
      c.audit_trail.replay,
      undefined,
      {},
      'Recomputes every hash and signature of the chain and answers `valid`.',
      false,
    ),
  ].map((s, i) => ({ order: i + 1, ...s }));
  const completed = steps.filter((s) => s.done).length;
  return {
    object: 'svc.seed.demo_tour',
    steps,
    completed,
    total: steps.length,
    next: steps.find((s) => !s.done)?.key ?? null,
  };
}
