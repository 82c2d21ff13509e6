import { createHash, createPublicKey, verify } from 'node:crypto';
import {
  TrainingCertificate,
  type TrainingCertificateVerification,
  type TrainingCoverage,
  type TrainingModule,
  type TrainingRecord,
  type trainingModules,
  type trainingRecords,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { invalid } from '../../errors.ts';
import type { TrainingModule as ModuleRow, TrainingRecord as RecordRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { activeSigner } from '../../platform/ledger/signing.ts';
import { pastMoment } from '../../platform/moments.ts';
import { createdOf, type Page, type PageQuery, recorded } from '../../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';

const DAY_MS = 86_400_000;
const ratio = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

type FrameworkRefs = z.infer<typeof TrainingModule>['frameworkRefs'];

// ---------------------------------------------------------------- modules

export const moduleStore: Store<typeof trainingModules> = {
  model: 'trainingModule',
  create: async ({ db, shared, who, body }) => {
    const roleIds = body.requiredForRoleIds;
    const dup = roleIds.findIndex((id, i) => roleIds.indexOf(id) !== i);
    if (dup >= 0) throw invalid(`requiredForRoleIds[${dup}]`, `Role ${roleIds[dup]} is named twice.`);
    const refs = body.frameworkRefs ?? [];
    const [roles, frameworks] = await Promise.all([
      roleIds.length ? db.stakeholderRole.findMany({ where: { id: { in: roleIds } }, select: { id: true } }) : [],
      refs.length ? shared.framework.findMany({ where: { id: { in: refs.map((r) => r.framework) } }, select: { id: true } }) : [],
    ]);
    const knownRoles = new Set(roles.map((r) => r.id));
    const r = roleIds.findIndex((id) => !knownRoles.has(id));
    if (r >= 0) throw invalid(`requiredForRoleIds[${r}]`, `Role ${roleIds[r]} does not exist in this tenant.`);
    const knownFrameworks = new Set(frameworks.map((f) => f.id));
    const f = refs.findIndex((ref) => !knownFrameworks.has(ref.framework));
    if (f >= 0) throw invalid(`frameworkRefs[${f}].framework`, `No shipped framework dictionary is named ${refs[f]?.framework}.`);
    return {
      title: body.title,
      description: body.description ?? null,
      requiredForRoleIds: roleIds,
      validityDays: body.validityDays ?? null,
      frameworkRefs: refs,
      createdBy: who.actor,
    };
  },
  auditData: (m) => ({ title: m.title, requiredForRoleIds: m.requiredForRoleIds, validityDays: m.validityDays }),
};

// ---------------------------------------------------------------- records and certificates

const renderRecord = (r: RecordRow, now = Date.now()): z.infer<typeof TrainingRecord> => ({
  object: 'svc.training_records.record',
  id: r.id,
  moduleId: r.moduleId,
  userId: r.userId,
  completedAt: iso(r.completedAt),
  score: r.score,
  expiresAt: isoOrNull(r.expiresAt),
  expired: r.expiresAt !== null && r.expiresAt.getTime() <= now,
  certificateId: r.certificateId,
  ...createdOf(r),
});

/**
 * The canonical certificate: what it states, as JSON with its keys in a fixed order. Its SHA-256 is
 * the verification code; the audit signing key signs that code.
 */
function certificateHash(r: Omit<RecordRow, 'certificateHash' | 'certificateKeyId' | 'certificateSignature' | 'createdBy'>): string {
  const canonical = JSON.stringify([
    'svc.training_records.certificate/v1',
    r.certificateId,
    r.id,
    r.tenantId,
    r.moduleId,
    r.moduleTitle,
    r.userId,
    r.userName,
    iso(r.completedAt),
    isoOrNull(r.expiresAt),
    r.score,
    iso(r.createdAt),
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

const verifyPath = (code: string) => `/v1/training-records/certificates/verify?code=${code}`;

const renderCertificate = rendererOf<RecordRow>()(TrainingCertificate, {
  id: (r) => r.certificateId,
  recordId: (r) => r.id,
  verificationCode: (r) => r.certificateHash,
  keyId: (r) => r.certificateKeyId,
  signature: (r) => r.certificateSignature,
  verifyPath: (r) => verifyPath(r.certificateHash),
  issuedAt: (r) => iso(r.createdAt),
});

/** The person a completion is about, as its registered events carry them (`principal`). */
const principalOf = (r: z.infer<typeof TrainingRecord>) => ({ principal: r.userId, ...(r.score === null ? { score: undefined } : {}) });

/**
 * Completion records: the create checks the module and the person, and in its transaction issues
 * the certificate, signed with the audit signing key over the record as it is stored, then
 * records `training.certificate_issued` beside the kit's `training.completed`.
 */
export const recordStore: Store<typeof trainingRecords> = {
  model: 'trainingRecord',
  render: (r: RecordRow) => renderRecord(r),
  create: async ({ db, who, body }) => {
    const completedAt = pastMoment('completedAt', body.completedAt, new Date());
    const [module, user] = await Promise.all([
      db.trainingModule.findFirst({ where: { id: body.moduleId } }),
      db.stakeholderUser.findFirst({ where: { id: body.userId } }),
    ]);
    if (!module) throw invalid('moduleId', `Training module ${body.moduleId} does not exist in this tenant.`);
    if (!user) throw invalid('userId', `Person ${body.userId} does not exist in this tenant.`);
    return {
      moduleId: module.id,
      moduleTitle: module.title,
      userId: user.id,
      userName: user.name,
      completedAt,
      score: body.score ?? null,
      expiresAt: module.validityDays ? new Date(completedAt.getTime() + module.validityDays * DAY_MS) : null,
      certificateId: newId('tcf'),
      createdBy: who.actor,
    };
  },
  prepare: async ({ tx, who, id, data, now }) => {
    const row = { ...(data as Omit<RecordRow, 'id' | 'tenantId' | 'createdAt'>), id, tenantId: who.tenantId, createdAt: now };
    const code = certificateHash(row);
    const signer = await activeSigner(tx);
    Object.assign(data, { createdAt: now, certificateHash: code, certificateKeyId: signer.keyId, certificateSignature: signer.sign(code) });
  },
  auditData: (r) => ({ moduleId: r.moduleId, userId: r.userId, completedAt: r.completedAt, certificateId: r.certificateId }),
  eventData: (r) => ({ ...r, ...principalOf(r) }),
  afterCreate: async ({ tx, who, record }) => {
    const row = await scopeToTenant(tx, who.tenantId).trainingRecord.findFirst({ where: { id: record.id } });
    const certificate = renderCertificate(row as RecordRow);
    await recorded(
      tx,
      who,
      { ...certificate, certificateId: certificate.id, ...principalOf(record) },
      {
        action: 'training.certificate_issued',
        data: { recordId: record.id, verificationCode: certificate.verificationCode, keyId: certificate.keyId },
      },
    );
  },
};

export async function listCertificates(
  prisma: Prisma,
  tenantId: string,
  query: PageQuery & { userId?: string; moduleId?: string; recordId?: string },
): Promise<Page<z.infer<typeof TrainingCertificate>>> {
  return keysetList(scopeToTenant(prisma, tenantId).trainingRecord, query, {
    render: renderCertificate,
    filters: ['userId', 'moduleId', 'recordId'],
    filterWhere: { recordId: (v) => ({ id: v }) },
  });
}

/** Finds the certificate by its code, recomputes the hash of the stored record and checks the signature. */
export async function verifyCertificate(prisma: Prisma, code: string): Promise<z.infer<typeof TrainingCertificateVerification>> {
  const checkedAt = new Date();
  const out = (valid: boolean, reason: z.infer<typeof TrainingCertificateVerification>['reason'], row: RecordRow | null) => ({
    object: 'svc.training_records.certificate_verification' as const,
    valid,
    reason,
    certificate: row
      ? {
          id: row.certificateId,
          moduleTitle: row.moduleTitle,
          userName: row.userName,
          completedAt: iso(row.completedAt),
          expiresAt: isoOrNull(row.expiresAt),
          expired: row.expiresAt !== null && row.expiresAt.getTime() <= checkedAt.getTime(),
          keyId: row.certificateKeyId,
        }
      : null,
    checkedAt: iso(checkedAt),
  });
  // A public read across tenants: the code is unique and is the only way in.
  const row = await prisma.trainingRecord.findUnique({ where: { certificateHash: code.toLowerCase() } });
  if (!row) return out(false, 'unknown_code', null);
  if (certificateHash(row) !== row.certificateHash) return out(false, 'record_altered', row);
  const key = await prisma.signingKey.findUnique({ where: { id: row.certificateKeyId }, select: { publicKey: true } });
  let signed = false;
  if (key) {
    try {
      const publicKey = createPublicKey({ key: Buffer.from(key.publicKey, 'base64'), format: 'der', type: 'spki' });
      signed = verify(null, Buffer.from(row.certificateHash, 'ascii'), publicKey, Buffer.from(row.certificateSignature, 'base64url'));
    } catch {
      signed = false;
    }
  }
  return signed ? out(true, 'intact', row) : out(false, 'bad_signature', row);
}

// ---------------------------------------------------------------- coverage

/**
 * Per role some module is required of: the share of its active holders with an unexpired
 * completion (at `at`) of every required module; and every (person, required module) pair
 * without one, as never completed or expired.
 */
export async function coverage(
  prisma: Prisma,
  tenantId: string,
  query: { roleId?: string | undefined; framework?: string | undefined; at?: string | undefined },
): Promise<z.infer<typeof TrainingCoverage>> {
  const db = scopeToTenant(prisma, tenantId);
  const at = query.at ? new Date(query.at) : new Date();
  if (query.roleId && !(await db.stakeholderRole.findFirst({ where: { id: query.roleId }, select: { id: true } }))) {
    throw invalid('roleId', `Role ${query.roleId} does not exist in this tenant.`);
  }
  const modules = (await db.trainingModule.findMany({ orderBy: { id: 'asc' } })).filter(
    (m) => !query.framework || ((m.frameworkRefs as FrameworkRefs | null) ?? []).some((r) => r.framework === query.framework),
  );
  /** Role id -> modules required of it. */
  const requiredOf = new Map<string, ModuleRow[]>();
  for (const m of modules) {
    for (const roleId of m.requiredForRoleIds) {
      if (query.roleId && roleId !== query.roleId) continue;
      requiredOf.set(roleId, [...(requiredOf.get(roleId) ?? []), m]);
    }
  }
  const roleIds = [...requiredOf.keys()];
  const [roles, people] = await Promise.all([
    roleIds.length ? db.stakeholderRole.findMany({ where: { id: { in: roleIds } } }) : [],
    roleIds.length
      ? db.stakeholderUser.findMany({
          where: { status: 'active', roleIds: { hasSome: roleIds } },
          orderBy: [{ name: 'asc' }, { id: 'asc' }],
        })
      : [],
  ]);
  const records = people.length
    ? await db.trainingRecord.findMany({
        where: { userId: { in: people.map((p) => p.id) }, moduleId: { in: modules.map((m) => m.id) }, completedAt: { lte: at } },
        select: { userId: true, moduleId: true, expiresAt: true },
      })
    : [];
  /** `user|module` -> valid at `at`, or the latest expiry of its completions. */
  const state = new Map<string, { valid: boolean; lastExpiry: Date | null }>();
  for (const r of records) {
    const key = `${r.userId}|${r.moduleId}`;
    const s = state.get(key) ?? { valid: false, lastExpiry: null };
    if (r.expiresAt === null || r.expiresAt.getTime() > at.getTime()) s.valid = true;
    else if (!s.lastExpiry || r.expiresAt > s.lastExpiry) s.lastExpiry = r.expiresAt;
    state.set(key, s);
  }
  const validFor = (userId: string, moduleId: string) => state.get(`${userId}|${moduleId}`)?.valid === true;

  const roleRows = roles
    .map((role) => {
      const required = requiredOf.get(role.id) ?? [];
      const holders = people.filter((p) => p.roleIds.includes(role.id));
      const trained = holders.filter((p) => required.every((m) => validFor(p.id, m.id))).length;
      return {
        roleId: role.id,
        name: role.name,
        requiredModuleIds: required.map((m) => m.id),
        people: holders.length,
        trained,
        share: ratio(trained, holders.length),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.roleId.localeCompare(b.roleId));

  const overdue: z.infer<typeof TrainingCoverage>['overdue'] = [];
  let trainedPeople = 0;
  for (const p of people) {
    const mine = p.roleIds.filter((r) => requiredOf.has(r));
    const required = new Map<string, { module: ModuleRow; roleIds: string[] }>();
    for (const roleId of mine) {
      for (const m of requiredOf.get(roleId) ?? []) {
        const entry = required.get(m.id) ?? { module: m, roleIds: [] };
        entry.roleIds.push(roleId);
        required.set(m.id, entry);
      }
    }
    const missing = [...required.values()].filter(({ module }) => !validFor(p.id, module.id));
    if (missing.length === 0) trainedPeople++;
    for (const { module, roleIds: because } of missing.sort((a, b) => a.module.title.localeCompare(b.module.title))) {
      const s = state.get(`${p.id}|${module.id}`);
      overdue.push({
        userId: p.id,
        name: p.name,
        moduleId: module.id,
        moduleTitle: module.title,
        roleIds: because,
        reason: s?.lastExpiry ? 'expired' : 'never_completed',
        expiredAt: s?.lastExpiry ? iso(s.lastExpiry) : null,
      });
    }
  }
  return {
    object: 'svc.training_records.coverage',
    at: iso(at),
    framework: query.framework ?? null,
    roles: roleRows,
    people: people.length,
    trained: trainedPeople,
    share: ratio(trainedPeople, people.length),
    overdue,
  };
}
