import { createHash } from 'node:crypto';
import {
  type AddPolicyVersionBody,
  type AttestPolicyBody,
  POLICY_TRANSITIONS,
  Policy,
  PolicyAttestation,
  type PolicyAttestationCoverage,
  type PolicyDecisionBody,
  type PolicyDiff,
  type PolicyGap,
  type PolicyGapFill,
  PolicyPublication,
  PolicyVersion,
  type PublishPolicyBody,
  type policyDrafts,
  type policyPublications,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { decodeCursor, encodeCursor, keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, notFound, stateConflict } from '../../errors.ts';
import type {
  PolicyAttestation as AttestationRow,
  Policy as PolicyRow,
  PolicyPublication as PublicationRow,
  PolicyVersion as VersionRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { actingPerson, type PersonActor, personAsActor } from '../../platform/acting-person.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { isUniqueViolation, type Page, type PageQuery, recorded } from '../../platform/records.ts';
import { iso, rendererOf } from '../../platform/render.ts';

/**
 * The policy-authoring rail. Lifecycle of a policy (status), declared once in the contract
 * (POLICY_TRANSITIONS):
 *   draft --submit--> in_approval --approve (last step: publish)--> published --retire--> retired
 *   in_approval --reject--> draft;  published --version--> draft (a new revision)
 * Every other move is a 409 naming the current state, and nothing changes.
 */

type PolicyStatus = z.infer<typeof Policy>['status'];
type Move = keyof typeof POLICY_TRANSITIONS;

/** How the 409 of a move names it: the verb of its route. */
const MOVE_WORDS: Record<Move, string> = {
  version: 'adding a version',
  submit: 'publish',
  approve: 'approve',
  publish: 'approve',
  reject: 'reject',
  attest: 'attest',
  retire: 'retire',
};

const refused = (policy: PolicyRow, move: Move) =>
  stateConflict('Policy', policy.id, policy.status, MOVE_WORDS[move], POLICY_TRANSITIONS[move].from);

/** The policy (404 when not the tenant's) in a state `move` is allowed from (409 otherwise). */
async function policyFor(db: Tx, id: string, move: Move): Promise<PolicyRow> {
  const policy = await findPolicy(db, id);
  if (!(POLICY_TRANSITIONS[move].from as readonly string[]).includes(policy.status)) throw refused(policy, move);
  return policy;
}

/** Moves the policy read by `policyFor` to the move's state, if it is still in the state read (409 otherwise). */
async function movePolicy(db: Tx, policy: PolicyRow, move: Move, now: Date, data: Partial<PolicyRow> = {}): Promise<void> {
  const moved = await db.policy.updateMany({
    where: { id: policy.id, status: policy.status },
    data: { ...data, status: POLICY_TRANSITIONS[move].to, updatedAt: now },
  });
  if (moved.count === 0) throw refused(policy, move);
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const linesOf = (text: string) => text.replace(/\r\n?/g, '\n').split('\n');
const ratio = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

// ---------------------------------------------------------------- rendering

export const renderPolicy = rendererOf<PolicyRow>()(Policy, {});

const renderVersion = rendererOf<VersionRow>()(PolicyVersion, { lines: (r) => linesOf(r.text).length });

type DecisionEntry = z.infer<typeof PolicyPublication>['decisions'][number];

const renderPublication = rendererOf<PublicationRow>()(PolicyPublication, {
  status: (r) => r.status as 'pending',
  currentStep: (r) => (r.status === 'pending' ? r.step + 1 : null),
  awaitingApproverId: (r) => (r.status === 'pending' ? (r.approverIds[r.step] ?? null) : null),
  decisions: (r) => (r.decisions as DecisionEntry[] | null) ?? [],
});

const renderAttestation = rendererOf<AttestationRow>()(PolicyAttestation, {});

// ---------------------------------------------------------------- policies

async function findPolicy(db: Tx, id: string): Promise<PolicyRow> {
  const row = await db.policy.findFirst({ where: { id } });
  if (!row) throw notFound('Policy', id);
  return row;
}

/** Control ids of `wanted` that no shipped dictionary has. */
async function unknownControls(prisma: Tx, wanted: readonly string[]): Promise<string[]> {
  const rows = await prisma.frameworkControl.findMany({ where: { id: { in: [...wanted] } }, select: { id: true } });
  const known = new Set(rows.map((r) => r.id));
  return wanted.filter((c) => !known.has(c));
}

/**
 * The policies, served by the kit. A draft's controls are checked against the shipped dictionaries
 * and its owner against the tenant's people before the write; its version 1 is written in the
 * same transaction as the policy.
 */
export const policyStore: Store<typeof policyDrafts> = {
  model: 'policy',
  // A retired policy no longer covers its controls (coverage reads `published` ones only).
  transitions: { retire: () => ({ retiredAt: new Date() }) },
  filterWhere: { controlId: (v) => ({ controlIds: { has: v } }) },
  create: async ({ db, shared, who, body }) => {
    const dup = body.controlIds.findIndex((c, i) => body.controlIds.indexOf(c) !== i);
    if (dup >= 0) throw invalid(`controlIds[${dup}]`, `Control ${body.controlIds[dup]} is named twice.`);
    const unknown = await unknownControls(shared, body.controlIds);
    if (unknown.length > 0) {
      const i = body.controlIds.indexOf(unknown[0] as string);
      throw invalid(`controlIds[${i}]`, `No shipped framework dictionary has the control ${unknown.join(', ')}.`);
    }
    if (body.ownerId && !(await db.stakeholderUser.findFirst({ where: { id: body.ownerId }, select: { id: true } }))) {
      throw invalid('ownerId', `Person ${body.ownerId} does not exist in this tenant.`);
    }
    return {
      title: body.title,
      status: 'draft',
      controlIds: body.controlIds,
      ownerId: body.ownerId ?? null,
      currentVersion: 1,
      createdBy: who.actor,
    };
  },
  auditData: (p) => ({ title: p.title, controlIds: p.controlIds, version: 1 }),
  // Version 1 carries the policy's clock: both were written at once.
  afterCreate: ({ tx, who, record, body }) => writeVersion(tx, who, record.id, 1, body.text, null, new Date(record.createdAt)),
};

// ---------------------------------------------------------------- versions

/** Writes version `number` of a policy: its text, hashed, and the note that comes with it. */
function writeVersion(tx: Tx, who: Actor, policyId: string, number: number, text: string, note: string | null, now: Date) {
  return tx.policyVersion.create({
    data: {
      id: newId('pvr'),
      tenantId: who.tenantId,
      policyId,
      number,
      text,
      note,
      sha256: sha256(text),
      createdBy: who.actor,
      createdAt: now,
    },
  });
}

export async function addVersion(
  prisma: Prisma,
  who: Actor,
  body: z.infer<typeof AddPolicyVersionBody>,
): Promise<z.infer<typeof PolicyVersion>> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const policy = await policyFor(db, body.policyId, 'version');
    const latest = await db.policyVersion.findFirst({ where: { policyId: policy.id, number: policy.currentVersion } });
    if (latest && latest.sha256 === sha256(body.text)) {
      throw invalid('text', `The text is identical to version ${latest.number}; a version must change it.`);
    }
    const number = policy.currentVersion + 1;
    const now = new Date();
    // Conditional on the state and version read: a concurrent change makes this one a conflict.
    const moved = await db.policy.updateMany({
      where: { id: policy.id, status: policy.status, currentVersion: policy.currentVersion },
      data: { currentVersion: number, status: POLICY_TRANSITIONS.version.to, updatedAt: now },
    });
    if (moved.count === 0) throw new ApiError('conflict', `Policy ${policy.id} changed while the version was being added; retry.`);
    const row = await writeVersion(tx, who, policy.id, number, body.text, body.note ?? null, now);
    return recorded(tx, who, renderVersion(row), {
      action: 'policy.version_added',
      data: { policyId: policy.id, number, from: policy.status, to: POLICY_TRANSITIONS.version.to },
    });
  });
}

export async function listVersions(
  prisma: Prisma,
  tenantId: string,
  policyId: string,
  query: PageQuery,
): Promise<Page<z.infer<typeof PolicyVersion>>> {
  const db = scopeToTenant(prisma, tenantId);
  await findPolicy(db, policyId);
  return keysetList(db.policyVersion, query, { render: renderVersion, where: { policyId } });
}

async function findVersion(db: Tx, policyId: string, number: number): Promise<VersionRow> {
  const row = await db.policyVersion.findFirst({ where: { policyId, number } });
  if (!row) throw new ApiError('not_found', `Policy ${policyId} has no version ${number}.`);
  return row;
}

export async function getVersion(
  prisma: Prisma,
  tenantId: string,
  policyId: string,
  number: number,
): Promise<z.infer<typeof PolicyVersion>> {
  const db = scopeToTenant(prisma, tenantId);
  await findPolicy(db, policyId);
  return renderVersion(await findVersion(db, policyId, number));
}

/** Lines beyond which the quadratic comparison table is refused (after trimming the common ends). */
const DIFF_CELLS_MAX = 16_000_000;

/**
 * Line diff of two texts: the common prefix and suffix are set aside, the middle compared by the
 * longest common subsequence of lines; what is not in it is removed (from `a`) or added (in `b`).
 */
export function lineDiff(a: readonly string[], b: readonly string[]) {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if ((n + 1) * (m + 1) > DIFF_CELLS_MAX) {
    throw new ApiError('validation_failed', `The versions differ in ${n} and ${m} lines: too many to compare.`, [
      { field: 'to', issue: 'too_big', message: 'too many changed lines' },
    ]);
  }
  // lcs[i][j]: length of the LCS of a[start+i..endA) and b[start+j..endB).
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] =
        a[start + i] === b[start + j]
          ? (lcs[(i + 1) * w + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * w + j] as number, lcs[i * w + j + 1] as number);
    }
  }
  type Change = { op: 'add' | 'remove'; fromLine: number | null; toLine: number | null; text: string };
  const changes: Change[] = [];
  // Changes between two common lines form a run; a removal reads before the addition that replaces it.
  let removed: Change[] = [];
  let added: Change[] = [];
  const flush = () => {
    changes.push(...removed, ...added);
    removed = [];
    added = [];
  };
  let i = 0;
  let j = 0;
  let unchanged = start + (a.length - endA);
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      flush();
      unchanged++;
      i++;
      j++;
    } else if (j < m && (i === n || (lcs[i * w + j + 1] as number) >= (lcs[(i + 1) * w + j] as number))) {
      added.push({ op: 'add', fromLine: null, toLine: start + j + 1, text: b[start + j] as string });
      j++;
    } else {
      removed.push({ op: 'remove', fromLine: start + i + 1, toLine: null, text: a[start + i] as string });
      i++;
    }
  }
  flush();
  const addedCount = changes.filter((c) => c.op === 'add').length;
  return { changes, stats: { added: addedCount, removed: changes.length - addedCount, unchanged } };
}

export async function diffVersions(
  prisma: Prisma,
  tenantId: string,
  policyId: string,
  query: { from?: number | undefined; to?: number | undefined },
): Promise<z.infer<typeof PolicyDiff>> {
  const db = scopeToTenant(prisma, tenantId);
  const policy = await findPolicy(db, policyId);
  const to = query.to ?? policy.currentVersion;
  const from = query.from ?? Math.max(1, to - 1);
  const [a, b] = await Promise.all([findVersion(db, policyId, from), findVersion(db, policyId, to)]);
  const { changes, stats } = lineDiff(linesOf(a.text), linesOf(b.text));
  return { object: 'svc.policy_authoring.policy_diff', policyId, from, to, stats, changes };
}

// ---------------------------------------------------------------- publication

export async function startPublication(
  prisma: Prisma,
  who: Actor,
  body: z.infer<typeof PublishPolicyBody>,
): Promise<z.infer<typeof PolicyPublication>> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const policy = await policyFor(db, body.policyId, 'submit');
    const chain = await db.approvalChain.findFirst({ where: { id: body.chainId } });
    if (!chain) throw invalid('chainId', `Approval chain ${body.chainId} does not exist in this tenant.`);
    if (chain.approverIds.length === 0) throw invalid('chainId', `Approval chain ${chain.id} has no approvers.`);
    const active = await db.stakeholderUser.findMany({ where: { id: { in: chain.approverIds }, status: 'active' }, select: { id: true } });
    const activeIds = new Set(active.map((u) => u.id));
    const gone = chain.approverIds.filter((id) => !activeIds.has(id));
    if (gone.length > 0) throw invalid('chainId', `Approvers of chain ${chain.id} are not active people: ${gone.join(', ')}.`);
    const now = new Date();
    await movePolicy(db, policy, 'submit', now);
    const row = await tx.policyPublication.create({
      data: {
        id: newId('ppa'),
        tenantId: who.tenantId,
        policyId: policy.id,
        version: policy.currentVersion,
        chainId: chain.id,
        approverIds: chain.approverIds,
        step: 0,
        status: 'pending',
        decisions: [],
        createdBy: who.actor,
        createdAt: now,
        updatedAt: now,
      },
    });
    const out = renderPublication(row);
    return recorded(tx, who, out, {
      action: 'policy.submitted',
      data: { policyId: policy.id, version: out.version, chainId: chain.id, from: policy.status, to: POLICY_TRANSITIONS.submit.to },
    });
  });
}

/** Records the decision of the current step's approver; the last approval publishes, a rejection returns the policy to draft. */
export async function decide(
  prisma: Prisma,
  who: PersonActor,
  body: z.infer<typeof PolicyDecisionBody>,
  decision: 'approve' | 'reject',
): Promise<z.infer<typeof PolicyPublication>> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const policy = await policyFor(db, body.policyId, decision);
    const pub = await db.policyPublication.findFirst({ where: { policyId: policy.id, status: 'pending' }, orderBy: { id: 'desc' } });
    if (!pub) throw refused(policy, decision);
    const awaited = pub.approverIds[pub.step];
    // The person deciding is the one the API key acts for, never whoever the body names.
    const approverId = (await actingPerson(tx, who, 'approverId', body.approverId, `${decision} a step of a policy's approval`)).id;
    if (approverId !== awaited) {
      throw new ApiError(
        'conflict',
        `Step ${pub.step + 1} of the approval of policy ${policy.id} awaits ${awaited}; ${approverId} may not ${decision} it.`,
        [{ field: 'approverId', issue: 'invalid_value', message: `awaited approver: ${awaited}` }],
      );
    }
    const now = new Date();
    const last = pub.step + 1 === pub.approverIds.length;
    const entry: DecisionEntry = { step: pub.step + 1, approverId, decision, comment: body.comment ?? null, at: iso(now) };
    const decisions = [...((pub.decisions as DecisionEntry[] | null) ?? []), entry];
    const pubStatus = decision === 'reject' ? 'rejected' : last ? 'approved' : 'pending';
    const advanced = await db.policyPublication.updateMany({
      where: { id: pub.id, status: 'pending', step: pub.step },
      data: { decisions, status: pubStatus, step: decision === 'approve' ? pub.step + 1 : pub.step, updatedAt: now },
    });
    if (advanced.count === 0) throw new ApiError('conflict', `Step ${pub.step + 1} of publication ${pub.id} was decided concurrently.`);
    const move: Move = decision === 'reject' ? 'reject' : last ? 'publish' : 'approve';
    const target = POLICY_TRANSITIONS[move].to;
    let published: PolicyRow | null = null;
    if (target !== policy.status) {
      await movePolicy(db, policy, move, now, move === 'publish' ? { publishedVersion: pub.version, publishedAt: now } : {});
      if (move === 'publish') published = await findPolicy(db, policy.id);
    }
    const out = await recorded(
      tx,
      personAsActor(who, approverId),
      renderPublication((await db.policyPublication.findFirst({ where: { id: pub.id } })) as PublicationRow),
      {
        action: decision === 'reject' ? 'policy.rejected' : 'policy.approved',
        data: {
          policyId: policy.id,
          step: entry.step,
          approverId: entry.approverId,
          credentialId: who.actor,
          ...(entry.comment ? { comment: entry.comment } : {}),
          from: policy.status,
          to: target,
        },
      },
    );
    if (published) {
      await recorded(tx, who, renderPolicy(published), {
        action: 'policy.published',
        data: { version: pub.version, publicationId: pub.id, from: 'in_approval', to: 'published' },
      });
    }
    return out;
  });
}

/** The walks' list, served by the kit; starting a walk and deciding its steps stay above. */
export const publicationStore: Store<typeof policyPublications> = {
  model: 'policyPublication',
  render: renderPublication,
};

// ---------------------------------------------------------------- attestations

export async function attest(
  prisma: Prisma,
  who: PersonActor,
  body: z.infer<typeof AttestPolicyBody>,
): Promise<z.infer<typeof PolicyAttestation>> {
  let attester = body.userId;
  const twice = () =>
    new ApiError('conflict', `Person ${attester} has already attested this version of policy ${body.policyId}.`, [
      { field: 'userId', issue: 'invalid_value', message: 'already attested' },
    ]);
  try {
    return await prisma.$transaction(async (tx) => {
      const db = scopeToTenant(tx, who.tenantId);
      const policy = await policyFor(db, body.policyId, 'attest');
      const version = policy.publishedVersion as number;
      // A person attests only for themselves: the one the API key acts for, never whoever the body names.
      const user = await actingPerson(tx, who, 'userId', body.userId, 'attest a policy');
      attester = user.id;
      if (user.status !== 'active') throw invalid('userId', `Person ${user.id} is ${user.status}; only active people attest.`);
      if (await db.policyAttestation.findFirst({ where: { policyId: policy.id, version, userId: user.id }, select: { id: true } })) {
        throw twice();
      }
      const row = await tx.policyAttestation.create({
        data: {
          id: newId('pat'),
          tenantId: who.tenantId,
          policyId: policy.id,
          version,
          userId: user.id,
          createdBy: who.actor,
          createdAt: new Date(),
        },
      });
      const out = renderAttestation(row);
      await recordChange(tx, {
        ...personAsActor(who, user.id),
        action: 'policy.attested',
        resourceType: out.object,
        resourceId: out.id,
        data: { policyId: policy.id, version, userId: user.id, credentialId: who.actor },
        // The data of the registered `policy.attested` type: the policy, with who attested.
        resource: {
          id: policy.id,
          title: policy.title,
          status: policy.status,
          version: String(version),
          principal: user.id,
          attestationId: out.id,
          createdAt: out.createdAt,
        },
      });
      return out;
    });
  } catch (err) {
    if (!(err instanceof ApiError) && isUniqueViolation(err)) throw twice();
    throw err;
  }
}

export async function listAttestations(
  prisma: Prisma,
  tenantId: string,
  query: PageQuery & { policyId?: string; userId?: string },
): Promise<Page<z.infer<typeof PolicyAttestation>>> {
  return keysetList(scopeToTenant(prisma, tenantId).policyAttestation, query, {
    render: renderAttestation,
    filters: ['policyId', 'userId'],
  });
}

/** Who among the active people (of the roles given) attested the published version, and who has not. */
export async function attestationCoverage(
  prisma: Prisma,
  tenantId: string,
  policyId: string,
  roleIdsParam: string | undefined,
): Promise<z.infer<typeof PolicyAttestationCoverage>> {
  const db = scopeToTenant(prisma, tenantId);
  const policy = await findPolicy(db, policyId);
  const roleIds = roleIdsParam ? [...new Set(roleIdsParam.split(','))] : [];
  if (roleIds.length > 0) {
    const roles = await db.stakeholderRole.findMany({ where: { id: { in: roleIds } }, select: { id: true } });
    const known = new Set(roles.map((r) => r.id));
    const unknown = roleIds.filter((r) => !known.has(r));
    if (unknown.length > 0) throw invalid('roleIds', `Roles ${unknown.join(', ')} do not exist in this tenant.`);
  }
  const version = policy.publishedVersion;
  const [people, attestations] = await Promise.all([
    db.stakeholderUser.findMany({
      where: { status: 'active', ...(roleIds.length ? { roleIds: { hasSome: roleIds } } : {}) },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    }),
    version === null ? [] : db.policyAttestation.findMany({ where: { policyId, version } }),
  ]);
  const attestedAt = new Map(attestations.map((a) => [a.userId, a.createdAt]));
  const attestedPeople = people
    .filter((p) => attestedAt.has(p.id))
    .map((p) => ({ userId: p.id, name: p.name, email: p.email, attestedAt: iso(attestedAt.get(p.id) as Date) }));
  const pendingPeople = people.filter((p) => !attestedAt.has(p.id)).map((p) => ({ userId: p.id, name: p.name, email: p.email }));
  return {
    object: 'svc.policy_authoring.attestation_coverage',
    policyId,
    status: policy.status as PolicyStatus,
    version,
    roleIds,
    people: people.length,
    attested: attestedPeople.length,
    pending: pendingPeople.length,
    share: ratio(attestedPeople.length, people.length),
    attestedPeople,
    pendingPeople,
    computedAt: iso(new Date()),
  };
}

// ---------------------------------------------------------------- gap-fill

const words = (s: string) => s.replace(/[-_]+/g, ' ');
const lowerFirst = (s: string) => (s ? s.charAt(0).toLowerCase() + s.slice(1) : s);
const withoutStop = (s: string) => s.replace(/[.\s]+$/, '');

/**
 * For the tenant's activated frameworks, the controls no published policy lists, each with an
 * outline drawn from its dictionary text, paged in framework then dictionary order.
 */
export async function gapFill(
  prisma: Prisma,
  tenantId: string,
  query: PageQuery & { framework?: string },
): Promise<z.infer<typeof PolicyGapFill>> {
  const db = scopeToTenant(prisma, tenantId);
  const after = decodeCursor(query.cursor, 'number') ?? 0;
  const [activations, policies] = await Promise.all([
    db.frameworkActivation.findMany({
      where: query.framework ? { frameworkId: query.framework } : {},
      select: { frameworkId: true, versionKey: true },
      orderBy: { frameworkId: 'asc' },
    }),
    db.policy.findMany({ where: { status: 'published' }, select: { controlIds: true } }),
  ]);
  const covered = new Set(policies.flatMap((p) => p.controlIds));
  const versionKeys = activations.map((a) => a.versionKey);
  const controls = versionKeys.length
    ? await prisma.frameworkControl.findMany({
        where: { versionKey: { in: versionKeys } },
        orderBy: [{ versionKey: 'asc' }, { ord: 'asc' }],
      })
    : [];
  const frameworks = activations.map((a) => {
    const own = controls.filter((c) => c.versionKey === a.versionKey);
    const n = own.filter((c) => covered.has(c.id)).length;
    return { framework: a.frameworkId, dictionaryVersion: a.versionKey, controls: own.length, covered: n, gaps: own.length - n };
  });
  const gaps = activations.flatMap((a) =>
    controls.filter((c) => c.versionKey === a.versionKey && !covered.has(c.id)).map((c) => ({ a, c })),
  );
  const page = gaps.slice(after, after + query.limit);
  const next = after + query.limit < gaps.length ? encodeCursor(after + query.limit) : null;

  const pageKeys = [...new Set(page.map((g) => g.c.versionKey))];
  const [clauses, questions, fws] = await Promise.all([
    page.length
      ? prisma.frameworkClause.findMany({
          where: { versionKey: { in: pageKeys }, ref: { in: [...new Set(page.flatMap((g) => g.c.clauseRefs))] } },
        })
      : [],
    page.length
      ? prisma.frameworkQuestion.findMany({
          where: { versionKey: { in: pageKeys }, controlId: { in: page.map((g) => g.c.id) } },
          orderBy: { ord: 'asc' },
        })
      : [],
    page.length ? prisma.framework.findMany({ where: { id: { in: [...new Set(page.map((g) => g.a.frameworkId))] } } }) : [],
  ]);
  const clauseOf = new Map(clauses.map((c) => [`${c.versionKey}|${c.ref}`, c]));
  const fwName = new Map(fws.map((f) => [f.id, f.shortTitle || f.title]));
  const data: z.infer<typeof PolicyGap>[] = page.map(({ a, c }) => {
    const cited = c.clauseRefs
      .map((ref) => clauseOf.get(`${c.versionKey}|${ref}`))
      .filter((x): x is NonNullable<typeof x> => x !== undefined)
      .map((cl) => ({ ref: cl.ref, title: cl.title, summary: cl.summary }));
    const asked = questions.filter((q) => q.controlId === c.id && q.versionKey === c.versionKey).map((q) => q.text);
    const framework = fwName.get(a.frameworkId) ?? a.frameworkId;
    const sections = [
      { heading: 'Purpose', guidance: c.description },
      {
        heading: 'Scope',
        guidance: `Applies to the ${words(c.category)} obligations of ${framework}${cited.length ? ` set out in ${cited.map((cl) => `${cl.ref} (${cl.title})`).join(', ')}` : ''}, for every system, team and supplier they concern.`,
      },
      ...cited.map((cl) => ({ heading: `Requirements: ${cl.title}`, guidance: cl.summary })),
      {
        heading: 'Roles and responsibilities',
        guidance: `Name the owner accountable for ${lowerFirst(withoutStop(c.title))}, who carries it out and who approves changes to this policy.`,
      },
      {
        heading: 'Evidence',
        guidance: asked.length
          ? `Keep records that answer: ${asked.join(' ')}`
          : `Keep dated records showing that the organisation does what control ${c.id} requires: ${lowerFirst(withoutStop(c.description))}.`,
      },
      { heading: 'Review', guidance: `Review at least yearly and whenever ${framework} or the provisions cited above change.` },
    ];
    return {
      framework: a.frameworkId,
      dictionaryVersion: a.versionKey,
      controlId: c.id,
      controlTitle: c.title,
      category: c.category,
      outline: { title: `${withoutStop(c.title)} policy`, purpose: c.description, clauses: cited, sections },
    };
  });
  return { object: 'svc.policy_authoring.gap_fill', frameworks, data, cursor: next, computedAt: iso(new Date()) };
}
