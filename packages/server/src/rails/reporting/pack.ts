import { createHash } from 'node:crypto';
import type { AuditPackBody, NotifiedBodyPackBody, ReportPack } from '@svc/contract';
import { zipSync } from 'fflate';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { activeSigner, listPublicKeys } from '../../platform/ledger/signing.ts';
import { exportAuditRange } from '../audit-trail/service.ts';
import { reportRow, systemOf } from './service.ts';

/**
 * The signed packs of the reporting rail. A pack is a zip of named files, a `manifest.json` that
 * lists every other file with its SHA-256 and size (and the tenant, the creation time, which is the
 * signing time `svc audit verify` holds the key's validity window to, and the key that signs it),
 * and `manifest.sig`: the Ed25519 signature, by the audit signing key, of the manifest's SHA-256,
 * made exactly as the audit chain's signatures are (so the keys of `GET /v1/audit-trail/keys`
 * verify it). `keys.json` carries those public keys for convenience;
 * a verifier anchors its trust in keys it fetched itself (`svc audit verify --trust`).
 */

export const PACK_FORMAT = 'svc.reporting.pack/1';
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const json = (v: unknown) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`, 'utf8');

interface PackRow {
  id: string;
  kind: string;
  systemId: string | null;
  reportId: string | null;
  fromSeq: number | null;
  toSeq: number | null;
  files: unknown;
  keyId: string;
  sha256: string;
  sizeBytes: number;
  createdBy: string;
  createdAt: Date;
}

type PackFile = { name: string; sha256: string; size: number };

export function renderPack(r: PackRow): z.infer<typeof ReportPack> {
  return {
    object: 'svc.reporting.pack',
    id: r.id,
    kind: r.kind as 'audit' | 'notified_body',
    systemId: r.systemId,
    reportId: r.reportId,
    range: r.fromSeq !== null && r.toSeq !== null ? { fromSeq: r.fromSeq, toSeq: r.toSeq } : null,
    files: r.files as PackFile[],
    keyId: r.keyId,
    sha256: r.sha256,
    sizeBytes: r.sizeBytes,
    downloadUrl: `/v1/reports/packs/${r.id}/download`,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
  };
}

const WITHOUT_ZIP = { zip: true } as const;

interface PackSpec {
  kind: 'audit' | 'notified_body';
  systemId: string | null;
  reportId: string | null;
  range: { fromSeq: number; toSeq: number } | null;
  files: Record<string, Uint8Array>;
  extra: Record<string, unknown>;
}

/**
 * Signs the manifest of `spec.files`, zips everything and stores the pack with its audit event,
 * in one transaction (the signer is read in it, as the chain's writers read theirs).
 */
async function storePack(prisma: Prisma, who: Actor, spec: PackSpec, action: string) {
  const id = newId('rpk');
  return prisma.$transaction(async (tx) => {
    const signer = await activeSigner(tx);
    // The manifest's createdAt is its signing time, which a verifier checks against the key's
    // validity window: taken once the signer is known, not before the transaction waited.
    const createdAt = new Date();
    const names = Object.keys(spec.files).sort();
    const files: PackFile[] = names.map((name) => {
      const b = spec.files[name] as Uint8Array;
      return { name, sha256: sha256(b), size: b.length };
    });
    const manifest = json({
      format: PACK_FORMAT,
      packId: id,
      kind: spec.kind,
      tenantId: who.tenantId,
      createdAt: createdAt.toISOString(),
      ...(spec.systemId ? { systemId: spec.systemId } : {}),
      ...(spec.reportId ? { reportId: spec.reportId } : {}),
      ...(spec.range ? { range: spec.range } : {}),
      ...spec.extra,
      signature: { algorithm: 'ed25519', keyId: signer.keyId, file: 'manifest.sig', keysFile: 'keys.json' },
      files,
    });
    const manifestHash = sha256(manifest);
    const sig = json({ algorithm: 'ed25519', keyId: signer.keyId, manifestSha256: manifestHash, signature: signer.sign(manifestHash) });
    const mtime = createdAt;
    const entries: Record<string, [Uint8Array, { level: 0 | 6; mtime: Date }]> = {};
    // PDFs are compressed already; storing them keeps a tampered byte a hash mismatch, not an inflate error.
    for (const name of names) entries[name] = [spec.files[name] as Uint8Array, { level: name.endsWith('.pdf') ? 0 : 6, mtime }];
    entries['manifest.json'] = [new Uint8Array(manifest), { level: 6, mtime }];
    entries['manifest.sig'] = [new Uint8Array(sig), { level: 6, mtime }];
    const zip = zipSync(entries);
    const row = (await scopeToTenant(tx, who.tenantId).reportPack.create({
      data: {
        id,
        tenantId: who.tenantId,
        kind: spec.kind,
        systemId: spec.systemId,
        reportId: spec.reportId,
        fromSeq: spec.range?.fromSeq ?? null,
        toSeq: spec.range?.toSeq ?? null,
        files: files as object[],
        keyId: signer.keyId,
        zip: new Uint8Array(zip),
        sha256: sha256(zip),
        sizeBytes: zip.length,
        createdBy: who.actor,
        createdAt,
      },
      omit: WITHOUT_ZIP,
    })) as PackRow;
    const out = renderPack(row);
    await recordChange(tx, {
      ...who,
      action,
      resourceType: 'svc.reporting.pack',
      resourceId: id,
      data: {
        kind: spec.kind,
        systemId: spec.systemId,
        reportId: spec.reportId,
        range: spec.range,
        sha256: out.sha256,
        keyId: signer.keyId,
      },
      resource: out,
    });
    return out;
  });
}

async function keysFile(db: Prisma | Tx) {
  return json({ data: await listPublicKeys(db) });
}

// ---------------------------------------------------------------- audit pack

export async function buildAuditPack(prisma: Prisma, who: Actor, body: z.infer<typeof AuditPackBody>) {
  if (body.fromSeq !== undefined && body.toSeq !== undefined && body.toSeq < body.fromSeq) {
    throw new ApiError('validation_failed', 'toSeq must not be before fromSeq.', [{ field: 'toSeq', issue: 'invalid_value' }]);
  }
  const files: Record<string, Uint8Array> = {};
  let reportId: string | null = null;
  if (body.reportId) {
    const row = await reportRow(prisma, who.tenantId, body.reportId);
    if (row.status !== 'ready') throw new ApiError('conflict', `Report ${row.id} is ${row.status}; only a ready report goes into a pack.`);
    const pdf = await scopeToTenant(prisma, who.tenantId).report.findFirst({ where: { id: row.id }, select: { pdf: true } });
    if (!pdf?.pdf) throw new ApiError('conflict', `Report ${row.id} has no stored PDF.`);
    files['report.pdf'] = new Uint8Array(pdf.pdf);
    reportId = row.id;
  }
  const exported = await exportAuditRange(prisma, who.tenantId, {
    ...(body.fromSeq !== undefined ? { fromSeq: body.fromSeq } : {}),
    ...(body.toSeq !== undefined ? { toSeq: body.toSeq } : {}),
  });
  files['audit-trail.json'] = json(exported);
  const evidence = await scopeToTenant(prisma, who.tenantId).evidence.findMany({ orderBy: { id: 'asc' } });
  files['evidence-index.json'] = json({
    tenantId: who.tenantId,
    count: evidence.length,
    data: evidence.map((e) => ({
      id: e.id,
      title: e.title,
      kind: e.kind,
      sha256: e.sha256,
      uri: e.uri,
      systemId: e.systemId,
      controls: e.controlIds,
      collected: e.collectedAt.toISOString(),
      expires: e.expiresAt ? e.expiresAt.toISOString() : null,
    })),
  });
  files['keys.json'] = await keysFile(prisma);
  return storePack(
    prisma,
    who,
    { kind: 'audit', systemId: null, reportId, range: exported.range, files, extra: { auditExport: 'audit-trail.json' } },
    'report.audit_pack_created',
  );
}

// ---------------------------------------------------------------- notified-body pack

/**
 * The nine sections of Annex IV (technical documentation of a high-risk AI system, Art. 11), with
 * the AI Act articles whose controls document each: evidence citing a control whose clause
 * references fall under one of those articles is a source of the section. Some sections also read
 * records of their own kind (the system profile, risks, activated standards, incidents).
 */
export const ANNEX_IV_SECTIONS = [
  {
    n: 1,
    title: 'General description of the AI system',
    articles: ['art-11', 'art-13', 'art-3', 'art-2'],
    records: ['profile', 'assessments'],
  },
  {
    n: 2,
    title: 'Detailed description of the elements of the AI system and of the process for its development',
    articles: ['art-10'],
    records: [],
  },
  { n: 3, title: 'Monitoring, functioning and control of the AI system', articles: ['art-12', 'art-14', 'art-26'], records: [] },
  { n: 4, title: 'Appropriateness of the performance metrics', articles: ['art-15'], records: [] },
  { n: 5, title: 'Risk management system (Art. 9)', articles: ['art-9'], records: ['risks'] },
  { n: 6, title: 'Relevant changes made through the lifecycle', articles: ['art-43'], records: [] },
  {
    n: 7,
    title: 'Harmonised standards and other technical specifications applied',
    articles: ['art-40', 'art-41'],
    records: ['frameworks'],
  },
  { n: 8, title: 'EU declaration of conformity (Art. 47)', articles: ['art-47', 'art-48', 'art-49'], records: ['attestations'] },
  { n: 9, title: 'Post-market monitoring plan (Art. 72)', articles: ['art-72', 'art-73'], records: ['incidents'] },
] as const;

const QMS_ARTICLE = 'art-17';
const underArticle = (ref: string, art: string) => ref === art || ref.startsWith(`${art}-`);

interface Source {
  type: string;
  id: string;
  title: string;
}

export async function buildNotifiedBodyPack(prisma: Prisma, who: Actor, body: z.infer<typeof NotifiedBodyPackBody>) {
  const system = await systemOf(prisma, who.tenantId, body.systemId);
  const db = scopeToTenant(prisma, who.tenantId);
  const [profile, assessments, evidence, risks, activations, attestations, incidents] = await Promise.all([
    db.publicDisclosureProfile.findFirst({ where: { systemId: system.id } }),
    db.assessment.findMany({ where: { systemId: system.id }, orderBy: { id: 'asc' } }),
    // The system's own evidence and the tenant-wide evidence (no system): both document it.
    db.evidence.findMany({ where: { OR: [{ systemId: system.id }, { systemId: null }] }, orderBy: { id: 'asc' } }),
    db.riskRegisterRisk.findMany({ where: { domain: 'ai' }, orderBy: { id: 'asc' } }),
    db.frameworkActivation.findMany({ orderBy: { frameworkId: 'asc' } }),
    db.attestation.findMany({ orderBy: { id: 'asc' } }),
    db.incidentDisclosure.findMany({ orderBy: { id: 'asc' } }),
  ]);
  // The clause references of every control the evidence cites, from the dictionaries.
  const cited = [...new Set(evidence.flatMap((e) => e.controlIds))].sort();
  const controls = cited.length
    ? await prisma.frameworkControl.findMany({ where: { id: { in: cited } }, select: { id: true, title: true, clauseRefs: true } })
    : [];
  const refsOf = new Map<string, string[]>();
  for (const c of controls) refsOf.set(c.id, [...(refsOf.get(c.id) ?? []), ...c.clauseRefs]);
  const evidenceUnder = (articles: readonly string[]) =>
    evidence.filter((e) => e.controlIds.some((cid) => (refsOf.get(cid) ?? []).some((r) => articles.some((a) => underArticle(r, a)))));

  const attestationsOfSystem = attestations.filter((a) => a.subjectId === system.id || a.statement.includes(system.id));
  const sections = ANNEX_IV_SECTIONS.map((s) => {
    const sources: Source[] = evidenceUnder(s.articles).map((e) => ({ type: 'evidence', id: e.id, title: e.title }));
    for (const kind of s.records as readonly string[]) {
      if (kind === 'profile' && profile)
        sources.push({ type: 'system_profile', id: profile.id, title: `${profile.name}: ${profile.purpose}` });
      if (kind === 'assessments')
        for (const a of assessments) sources.push({ type: 'assessment', id: a.id, title: a.title ?? `${a.type} (${a.status})` });
      if (kind === 'risks') for (const r of risks) sources.push({ type: 'risk', id: r.id, title: r.title });
      if (kind === 'frameworks') for (const f of activations) sources.push({ type: 'framework', id: f.frameworkId, title: f.versionKey });
      if (kind === 'attestations')
        for (const a of attestationsOfSystem)
          sources.push({ type: 'attestation', id: a.id, title: `${a.statement.slice(0, 120)} (${a.attesterName})` });
      if (kind === 'incidents') for (const i of incidents) sources.push({ type: 'incident', id: i.id, title: i.title });
    }
    return {
      section: s.n,
      title: s.title,
      articles: [...s.articles],
      status: sources.length > 0 ? 'documented' : 'missing',
      sources,
    };
  });
  const missing = sections.filter((s) => s.status === 'missing').map((s) => s.section);

  const qmsControls = controls.filter((c) => c.clauseRefs.some((r) => underArticle(r, QMS_ARTICLE)) || /QMS/i.test(c.id)).map((c) => c.id);
  const qms = evidence.filter(
    (e) =>
      e.controlIds.some((cid) => qmsControls.includes(cid)) ||
      /quality management|\bQMS\b|Art\.? ?17\b/i.test(`${e.title} ${e.description ?? ''}`),
  );

  // Decisions of the agents about the system: those whose stored request or facts cite its id.
  const decisions = (await db.agentDecision.findMany({ orderBy: { id: 'asc' }, take: 5000 }))
    .filter((d) => JSON.stringify(d.input).includes(JSON.stringify(system.id)))
    .map((d) => ({
      id: d.id,
      agent: d.agent,
      dictionaryVersion: d.dictionaryVersion,
      ruleSet: { id: d.ruleSetId, version: d.ruleSetVersion, sha256: d.ruleSetHash },
      hash: d.hash,
      output: d.output,
      createdAt: d.createdAt.toISOString(),
    }));

  const asOf = new Date().toISOString();
  const techDoc = {
    systemId: system.id,
    systemName: system.name,
    asOf,
    basis: 'Regulation (EU) 2024/1689, Annex IV',
    sections,
    missingSections: missing,
  };
  const md = [
    `# Technical documentation: ${system.name} (${system.id})`,
    '',
    `Annex IV of Regulation (EU) 2024/1689, filled from the records of tenant ${who.tenantId} as of ${asOf}. Draft for the notified body; not a declaration.`,
    '',
    ...sections.flatMap((s) => [
      `## ${s.section}. ${s.title}`,
      '',
      s.status === 'missing'
        ? `MISSING: no record documents this section (articles ${s.articles.join(', ')}).`
        : s.sources.map((src) => `- ${src.type} ${src.id}: ${src.title}`).join('\n'),
      '',
    ]),
    `Missing sections: ${missing.length ? missing.join(', ') : 'none'}.`,
    '',
  ].join('\n');

  const files: Record<string, Uint8Array> = {
    'technical-documentation.json': json(techDoc),
    'technical-documentation.md': Buffer.from(md, 'utf8'),
    'qms-evidence.json': json({
      systemId: system.id,
      controls: qmsControls,
      count: qms.length,
      data: qms.map((e) => ({
        id: e.id,
        title: e.title,
        sha256: e.sha256,
        controls: e.controlIds,
        collected: e.collectedAt.toISOString(),
      })),
    }),
    'agent-decisions.json': json({ systemId: system.id, count: decisions.length, data: decisions }),
    'keys.json': await keysFile(prisma),
  };
  return storePack(
    prisma,
    who,
    { kind: 'notified_body', systemId: system.id, reportId: null, range: null, files, extra: { missingSections: missing } },
    'report.notified_body_pack_created',
  );
}

// ---------------------------------------------------------------- reads

export async function getPack(prisma: Prisma, tenantId: string, id: string) {
  const row = (await scopeToTenant(prisma, tenantId).reportPack.findFirst({ where: { id }, omit: WITHOUT_ZIP })) as PackRow | null;
  if (!row) throw new ApiError('not_found', `Pack ${id} was not found.`);
  return renderPack(row);
}

export async function downloadPack(prisma: Prisma, who: Actor, id: string) {
  const pack = await getPack(prisma, who.tenantId, id);
  const row = await scopeToTenant(prisma, who.tenantId).reportPack.findFirst({ where: { id }, select: { zip: true } });
  const bytes = Buffer.from(row?.zip ?? new Uint8Array());
  await prisma.$transaction((tx) =>
    recordChange(tx, {
      ...who,
      action: 'report.exported',
      resourceType: 'svc.reporting.pack',
      resourceId: id,
      data: { sha256: pack.sha256, sizeBytes: bytes.length },
      resource: pack,
    }),
  );
  return { bytes, sha256: pack.sha256, filename: `${pack.kind === 'audit' ? 'audit-pack' : 'notified-body-pack'}-${id}.zip` };
}
