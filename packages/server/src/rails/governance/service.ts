import {
  GOVERNANCE_APPROVAL_ACTIONS,
  GOVERNANCE_SNAPSHOT_ACTION,
  GovernanceApproval,
  type GovernanceOrgRaci,
  GovernanceSnapshot,
  type GovernanceState,
  type governanceApprovals,
  type governanceBoardDecisions,
  type governanceBoardMeetings,
  type governanceConflicts,
  type governanceDecisionRights,
  type governanceDelegations,
  type governanceSnapshots,
} from '@svc/contract';
import type { Response } from 'express';
import type { z } from 'zod';
import type { Database, Prisma, Tx } from '../../db/client.ts';
import type { Row } from '../../db/rows.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, notFound, stateConflict } from '../../errors.ts';
import type {
  GovernanceApproval as ApprovalRow,
  GovernanceDelegation as DelegationRow,
  GovernanceBoardMeeting as MeetingRow,
  GovernanceSnapshot as SnapshotRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { actingPerson, type PersonActor, personAsActor } from '../../platform/acting-person.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { appendVersion } from '../../platform/ledger/versioned.ts';
import { lockRecord, recorded } from '../../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';
import { computeRaci, loadRaciInput, requireActivePerson } from '../stakeholders/service.ts';
import { canonicalHash } from '../workflows-registry/service.ts';

async function requirePerson(db: Tx, field: string, id: string): Promise<void> {
  const person = await db.stakeholderUser.findFirst({ where: { id }, select: { id: true } });
  if (!person) throw invalid(field, `Person ${id} does not exist in this tenant.`);
}

// ---------------------------------------------------------------- decision rights

export const decisionRightStore: Store<typeof governanceDecisionRights> = {
  model: 'governanceDecisionRight',
  create: async ({ db, who, body }) => {
    if (body.roleId !== undefined) {
      const role = await db.stakeholderRole.findFirst({ where: { id: body.roleId }, select: { id: true } });
      if (!role) throw invalid('roleId', `Role ${body.roleId} does not exist in this tenant.`);
    }
    if (body.personId !== undefined) await requireActivePerson(db, 'personId', body.personId);
    return {
      decisionType: body.decisionType,
      description: body.description ?? null,
      roleId: body.roleId ?? null,
      personId: body.personId ?? null,
      maxAmountEur: body.maxAmountEur ?? null,
      status: 'active',
      createdBy: who.actor,
    };
  },
  auditData: (d) => ({ decisionType: d.decisionType, roleId: d.roleId, personId: d.personId, maxAmountEur: d.maxAmountEur }),
};

// ---------------------------------------------------------------- approvals

type Approval = z.infer<typeof GovernanceApproval>;
type Step = Approval['steps'][number];

const renderApproval = rendererOf<ApprovalRow>()(GovernanceApproval, {
  currentStep: (r) => (r.status === 'pending' ? r.currentStep : null),
  currentApproverId: (r) => (r.status === 'pending' ? (r.approverIds[r.currentStep - 1] ?? null) : null),
  steps: (r) => r.steps as Step[],
});

export const approvalStore: Store<typeof governanceApprovals> = {
  model: 'governanceApproval',
  render: renderApproval,
  create: async ({ db, who, body }) => {
    const chain = await db.approvalChain.findFirst({ where: { id: body.chainId } });
    if (!chain) throw invalid('chainId', `Approval chain ${body.chainId} does not exist in this tenant.`);
    const active = new Set(
      (await db.stakeholderUser.findMany({ where: { id: { in: chain.approverIds }, status: 'active' }, select: { id: true } })).map(
        (u) => u.id,
      ),
    );
    const gone = chain.approverIds.find((id) => !active.has(id));
    if (gone) throw invalid('chainId', `Approver ${gone} of chain ${chain.id} is not an active person: the chain cannot be walked.`);
    return {
      subject: body.subject,
      chainId: chain.id,
      approverIds: chain.approverIds,
      currentStep: 1,
      status: 'pending',
      steps: [],
      createdBy: who.actor,
    };
  },
  auditData: (a) => ({ subject: a.subject, chainId: a.chainId, approverIds: a.approverIds }),
};

/**
 * Takes the current step of a pending approval: the acting person is the one the credential is
 * bound to, and must be the step's approver or hold a delegation from them in force now; neither
 * may have an open conflict of interest on the subject, and in a chain of several approvers no
 * one approves two steps. Approving the last step approves the whole; a rejection ends it.
 */
export async function decideApproval(
  prisma: Prisma,
  who: PersonActor,
  id: string,
  verb: 'approve' | 'reject',
  body: { approverId?: string | undefined; comment?: string | undefined },
): Promise<Approval> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    // Decisions on one approval queue on its row: the second sees the step the first moved it to.
    await lockRecord(tx, 'governance_approvals', who.tenantId, id);
    const row = await db.governanceApproval.findFirst({ where: { id } });
    if (!row) throw notFound('Approval', id);
    if (row.status !== 'pending') throw stateConflict('Approval', id, row.status, verb, ['pending']);
    const step = row.currentStep;
    const approver = row.approverIds[step - 1] as string;
    const acting = await actingPerson(tx, who, 'approverId', body.approverId, `${verb} a step of an approval`);
    const actedBy = acting.id;
    if (acting.status !== 'active') {
      throw new ApiError('forbidden', `Person ${actedBy} is ${acting.status} and cannot act on approvals.`, [
        { field: 'approverId', issue: 'invalid_value', message: 'inactive' },
      ]);
    }
    const now = new Date();
    let delegationId: string | null = null;
    if (actedBy !== approver) {
      const delegation = await db.governanceDelegation.findFirst({
        where: {
          fromPersonId: approver,
          toPersonId: actedBy,
          status: 'active',
          scope: { in: ['approvals', 'all'] },
          validFrom: { lte: now },
          validUntil: { gt: now },
        },
        orderBy: { id: 'asc' },
        select: { id: true },
      });
      if (!delegation) {
        throw new ApiError(
          'forbidden',
          `Step ${step} of approval ${id} is ${approver}'s to take; ${actedBy} is not that approver and holds no delegation from them in force now.`,
          [{ field: 'approverId', issue: 'invalid_value', message: `expected ${approver} or a delegate in force` }],
        );
      }
      delegationId = delegation.id;
    }
    // Several approvers mean several people: whoever approved an earlier step (in person or as a
    // delegate) may not approve another. A rejection only stops the approval, so it stays open to them.
    const earlier = (row.steps as Step[]).find((s) => s.actedBy === actedBy && s.decision === 'approved');
    if (verb === 'approve' && row.approverIds.length > 1 && earlier) {
      throw new ApiError(
        'forbidden',
        `${actedBy} already approved step ${earlier.step} of approval ${id}; each step of a chain of several approvers is approved by a different person.`,
        [{ field: 'approverId', issue: 'already_approved', message: `approved step ${earlier.step}` }],
      );
    }
    const conflict = await db.governanceConflict.findFirst({
      where: { personId: { in: [approver, actedBy] }, status: 'open', subject: { equals: row.subject, mode: 'insensitive' } },
      orderBy: { id: 'asc' },
      select: { id: true, personId: true },
    });
    if (conflict) {
      throw new ApiError(
        'conflict',
        `${conflict.personId} has an open conflict of interest on "${row.subject}" (${conflict.id}): the approval cannot be decided by them until it is managed or closed.`,
        [{ field: 'approverId', issue: 'invalid_value', message: `open conflict of interest: ${conflict.id}` }],
      );
    }
    const last = step === row.approverIds.length;
    const status = verb === 'reject' ? 'rejected' : last ? 'approved' : 'pending';
    const entry: Step = {
      step,
      approverId: approver,
      actedBy,
      delegationId,
      decision: verb === 'approve' ? 'approved' : 'rejected',
      comment: body.comment ?? null,
      at: iso(now),
    };
    // The row is locked since it was read: the step read is the one decided.
    await db.governanceApproval.updateMany({
      where: { id },
      data: {
        status,
        currentStep: status === 'pending' ? step + 1 : step,
        steps: [...(row.steps as Step[]), entry],
        updatedAt: now,
      },
    });
    const action =
      verb === 'reject'
        ? GOVERNANCE_APPROVAL_ACTIONS.rejected
        : last
          ? GOVERNANCE_APPROVAL_ACTIONS.approved
          : GOVERNANCE_APPROVAL_ACTIONS.stepApproved;
    // The trail names the person who acted; the key they used goes with it.
    return recorded(
      tx,
      personAsActor(who, actedBy),
      renderApproval((await db.governanceApproval.findFirst({ where: { id } })) as ApprovalRow),
      {
        action,
        data: {
          step,
          approverId: approver,
          actedBy,
          delegationId,
          from: 'pending',
          to: status,
          comment: entry.comment,
          credentialId: who.actor,
        },
      },
    );
  });
}

// ---------------------------------------------------------------- board meetings

export const boardMeetingStore: Store<typeof governanceBoardMeetings> = {
  model: 'governanceBoardMeeting',
  computed: { minutesRecordedAt: (r: MeetingRow) => isoOrNull(r.minutesAt) },
  create: async ({ db, who, body }) => {
    const attendeeIds = body.attendeeIds ?? [];
    const dup = attendeeIds.findIndex((a, i) => attendeeIds.indexOf(a) !== i);
    if (dup >= 0) throw invalid(`attendeeIds[${dup}]`, `${attendeeIds[dup]} is named twice.`);
    if (attendeeIds.length) {
      const known = new Set(
        (await db.stakeholderUser.findMany({ where: { id: { in: attendeeIds } }, select: { id: true } })).map((u) => u.id),
      );
      const i = attendeeIds.findIndex((a) => !known.has(a));
      if (i >= 0) throw invalid(`attendeeIds[${i}]`, `Person ${attendeeIds[i]} does not exist in this tenant.`);
    }
    return { title: body.title, scheduledFor: new Date(body.scheduledFor), attendeeIds, status: 'scheduled', createdBy: who.actor };
  },
  auditData: (m) => ({ title: m.title, scheduledFor: m.scheduledFor }),
  transitions: {
    approve_minutes: (row: MeetingRow) => {
      if (!row.minutes) {
        throw new ApiError('conflict', `Board meeting ${row.id} is held but has no minutes recorded; record them before approving.`, [
          { field: 'minutes', issue: 'missing', message: 'no minutes recorded' },
        ]);
      }
      return {};
    },
    record_minutes: {
      set: (_row, now, body) => ({ minutes: body.text, minutesAt: now }),
      auditData: (_m, before: MeetingRow, body) => ({ length: body.text.length, replaced: before.minutes !== null }),
    },
  },
};

/** Decisions of a meeting: the kit finds the meeting (404) and, for a create, locks it and checks it is `held`. */
export const boardDecisionStore: Store<typeof governanceBoardDecisions> = {
  model: 'governanceBoardDecision',
  parent: { model: 'governanceBoardMeeting' },
  create: async ({ who, body }) => ({
    title: body.title,
    decisionType: body.decisionType ?? null,
    outcome: body.outcome,
    votesFor: body.votesFor ?? null,
    votesAgainst: body.votesAgainst ?? null,
    abstentions: body.abstentions ?? null,
    notes: body.notes ?? null,
    createdBy: who.actor,
  }),
  auditData: (d) => ({ meetingId: d.meetingId, title: d.title, outcome: d.outcome }),
};

// ---------------------------------------------------------------- delegations

const inForce = (r: { status: string; validFrom: Date; validUntil: Date }, at: Date) =>
  r.status === 'active' && r.validFrom.getTime() <= at.getTime() && at.getTime() < r.validUntil.getTime();

export const delegationStore: Store<typeof governanceDelegations> = {
  model: 'governanceDelegation',
  // Whether the delegation grants now: an active one only between validFrom and validUntil.
  computed: { inForce: (r: DelegationRow) => inForce(r, new Date()) },
  create: async ({ db, who, body }) => {
    await requirePerson(db, 'fromPersonId', body.fromPersonId);
    await requireActivePerson(db, 'toPersonId', body.toPersonId);
    return {
      fromPersonId: body.fromPersonId,
      toPersonId: body.toPersonId,
      scope: body.scope,
      validFrom: new Date(body.validFrom),
      validUntil: new Date(body.validUntil),
      status: 'active',
      createdBy: who.actor,
    };
  },
  auditData: (d) => ({
    fromPersonId: d.fromPersonId,
    toPersonId: d.toPersonId,
    scope: d.scope,
    validFrom: d.validFrom,
    validUntil: d.validUntil,
  }),
};

// ---------------------------------------------------------------- conflicts of interest

export const conflictStore: Store<typeof governanceConflicts> = {
  model: 'governanceConflict',
  create: async ({ db, who, body }) => {
    await requirePerson(db, 'personId', body.personId);
    return { personId: body.personId, subject: body.subject, description: body.description ?? null, status: 'open', createdBy: who.actor };
  },
  auditData: (c) => ({ personId: c.personId, subject: c.subject }),
};

// ---------------------------------------------------------------- organisation-wide RACI

/** The RACI chart of every system the tenant's active assignments or assessments name. */
export async function orgRaci(prisma: Prisma, tenantId: string): Promise<z.infer<typeof GovernanceOrgRaci>> {
  const db = scopeToTenant(prisma, tenantId);
  const [input, assessed] = await Promise.all([
    loadRaciInput(prisma, tenantId),
    db.assessment.findMany({ select: { systemId: true }, distinct: ['systemId'] }),
  ]);
  const systemIds = [
    ...new Set([...input.systemIds, ...assessed.map((a) => a.systemId).filter((s): s is string => typeof s === 'string')]),
  ].sort();
  const systems = systemIds.map((systemId) => ({ systemId, ...computeRaci(input, systemId) }));
  const gaps = systems.flatMap((s) => s.gaps.map((g) => ({ systemId: s.systemId, ...g })));
  return {
    object: 'svc.governance.raci',
    systems,
    gaps,
    totals: { systems: systems.length, rows: systems.reduce((n, s) => n + s.data.length, 0), gaps: gaps.length },
    computedAt: iso(new Date()),
  };
}

// ---------------------------------------------------------------- snapshots

type Snapshot = z.infer<typeof GovernanceSnapshot>;
type State = z.infer<typeof GovernanceState>;

const renderSnapshot = rendererOf<SnapshotRow>()(GovernanceSnapshot, {
  changed: (r) => r.hash !== r.previousHash,
  state: (r) => r.state as State,
});

export const snapshotStore: Store<typeof governanceSnapshots> = { model: 'governanceSnapshot', render: renderSnapshot };

const CAP = 10_000;

/** The tenant's governance state as exported by a snapshot, every list by id. */
export async function governanceState(prisma: Prisma, tenantId: string, at: Date): Promise<State> {
  const db = scopeToTenant(prisma, tenantId);
  const byId = { orderBy: { id: 'asc' as const }, take: CAP };
  const [people, roles, chains, assignments, delegations, rights, conflicts] = await Promise.all([
    db.stakeholderUser.findMany({ ...byId, select: { id: true, name: true, email: true, status: true, roleIds: true } }),
    db.stakeholderRole.findMany({ ...byId, select: { id: true, name: true, description: true } }),
    db.approvalChain.findMany({ ...byId, select: { id: true, name: true, approverIds: true } }),
    db.stakeholderAssignment.findMany({
      ...byId,
      where: { status: 'active' },
      select: { id: true, personId: true, roleId: true, raci: true, systemId: true, control: true },
    }),
    db.governanceDelegation.findMany({ ...byId, where: { status: 'active', validFrom: { lte: at }, validUntil: { gt: at } } }),
    db.governanceDecisionRight.findMany({
      ...byId,
      where: { status: 'active' },
      select: { id: true, decisionType: true, roleId: true, personId: true, maxAmountEur: true },
    }),
    db.governanceConflict.findMany({ ...byId, where: { status: 'open' }, select: { id: true, personId: true, subject: true } }),
  ]);
  return {
    people,
    roles,
    approvalChains: chains,
    assignments,
    delegations: delegations.map((d) => ({
      id: d.id,
      fromPersonId: d.fromPersonId,
      toPersonId: d.toPersonId,
      scope: d.scope,
      validFrom: iso(d.validFrom),
      validUntil: iso(d.validUntil),
    })),
    decisionRights: rights,
    openConflicts: conflicts,
  };
}

/** Stores the tenant's next snapshot of its governance state, hashed (see appendVersion). */
export async function createSnapshot(
  database: Database,
  who: Actor,
  body: { note?: string | undefined },
  res: Response,
): Promise<Snapshot> {
  const at = new Date();
  const state = await governanceState(database.prisma, who.tenantId, at);
  const hash = canonicalHash(state);
  return appendVersion<{ version: number; hash: string }, Snapshot>(database, who, res, {
    model: 'governanceSnapshot',
    id: newId('gsn'),
    action: GOVERNANCE_SNAPSHOT_ACTION,
    resourceType: 'svc.governance.snapshot',
    previousColumns: '"version", "hash"',
    build: (previous) => ({
      hash,
      previousHash: previous?.hash ?? null,
      state,
      note: body.note ?? null,
      createdBy: who.actor,
      createdAt: at,
    }),
    render: (row) => renderSnapshot(row as Row & SnapshotRow),
    eventData: (r) => ({ version: r.version, hash: r.hash, previousHash: r.previousHash }),
  });
}
