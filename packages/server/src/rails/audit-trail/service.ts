import { AUDIT_EXPORT_FORMAT, type AuditExport, type AuditReplay, type AuditTrailEvent, GENESIS_HASH } from '@svc/contract';
import { hashExportSeal } from '@svc/contract/audit';
import type { z } from 'zod';
import { replayDecisions } from '../../agents/runtime.ts';
import type { Prisma } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type { AuditEvent } from '../../generated/prisma/client.ts';
import { chainVerifierFrom, toChainedEvent, VERIFY_PAGE } from '../../platform/ledger/audit.ts';
import { activeSigner, listPublicKeys } from '../../platform/ledger/signing.ts';
import { nextTurn } from '../../platform/next-turn.ts';

export const EXPORT_MAX_EVENTS = 50_000;

type Event = z.infer<typeof AuditTrailEvent>;

function render(r: AuditEvent): Event {
  return { object: 'svc.audit_trail.event', ...toChainedEvent(r), data: r.data as Record<string, unknown> };
}

export async function listAuditEvents(prisma: Prisma, tenantId: string, opts: { limit: number; cursor?: string }) {
  return keysetList(scopeToTenant(prisma, tenantId).auditEvent, opts, { key: 'seq', render });
}

export async function queryAuditEvents(
  prisma: Prisma,
  tenantId: string,
  q: {
    actor?: string;
    action?: string;
    resourceType?: string;
    resourceId?: string;
    from?: string;
    to?: string;
    limit: number;
    cursor?: string;
  },
) {
  return keysetList(scopeToTenant(prisma, tenantId).auditEvent, q, {
    key: 'seq',
    filters: ['actor', 'action', 'resourceType', 'resourceId'],
    where: q.from || q.to ? { createdAt: { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lt: new Date(q.to) } : {}) } } : {},
    render,
  });
}

async function loadRange(prisma: Prisma, tenantId: string, range: { fromSeq?: number; toSeq?: number }) {
  const head = await prisma.auditChainHead.findUnique({ where: { tenantId } });
  const headSeq = head?.seq ?? 0;
  const fromSeq = range.fromSeq ?? 1;
  const toSeq = Math.min(range.toSeq ?? headSeq, headSeq);
  if (toSeq - fromSeq + 1 > EXPORT_MAX_EVENTS) {
    throw new ApiError('validation_failed', `A range holds at most ${EXPORT_MAX_EVENTS} events; ask for consecutive ranges.`, [
      { field: 'toSeq', issue: 'too_big' },
    ]);
  }
  const db = scopeToTenant(prisma, tenantId);
  const rows =
    toSeq >= fromSeq ? await db.auditEvent.findMany({ where: { seq: { gte: fromSeq, lte: toSeq } }, orderBy: { seq: 'asc' } }) : [];
  const before = fromSeq > 1 ? await db.auditEvent.findFirst({ where: { seq: fromSeq - 1 }, select: { seq: true, hash: true } }) : null;
  const anchor = before ?? { seq: 0, hash: GENESIS_HASH };
  return { rows, anchor, head: { seq: headSeq, hash: head?.hash ?? GENESIS_HASH }, fromSeq, toSeq: Math.max(toSeq, fromSeq - 1) };
}

/**
 * A range of the chain, self-contained for an offline check. Besides the events (each signed), it
 * carries a seal: the active key's signature over the tenant, the time, the range, the event
 * before it, its last event and the chain head, so that a file whose newest events were dropped,
 * or whose range was relabelled, no longer verifies.
 */
export async function exportAuditRange(
  prisma: Prisma,
  tenantId: string,
  range: { fromSeq?: number; toSeq?: number },
): Promise<z.infer<typeof AuditExport>> {
  const r = await loadRange(prisma, tenantId, range);
  // Past the head there is no event before the range to anchor on, and so nothing to seal.
  if (r.fromSeq > r.head.seq + 1) {
    throw new ApiError('validation_failed', `fromSeq ${r.fromSeq} is past the chain's newest event (seq ${r.head.seq}).`, [
      { field: 'fromSeq', issue: 'too_big' },
    ]);
  }
  const exportedAt = new Date().toISOString();
  const lastRow = r.rows.at(-1);
  const statement = {
    tenantId,
    exportedAt,
    range: { fromSeq: r.fromSeq, toSeq: r.toSeq },
    anchor: r.anchor,
    last: lastRow ? { seq: lastRow.seq, hash: lastRow.hash } : r.anchor,
    head: r.head,
  };
  const signer = await activeSigner(prisma);
  const hash = hashExportSeal(statement);
  return {
    format: AUDIT_EXPORT_FORMAT,
    tenantId,
    exportedAt,
    range: statement.range,
    anchor: r.anchor,
    head: r.head,
    // Read after the signer, so the key that signs the seal is among them.
    publicKeys: await listPublicKeys(prisma),
    events: r.rows.map(render),
    seals: [{ algorithm: 'ed25519', keyId: signer.keyId, ...statement, hash, signature: signer.sign(hash) }],
  };
}

/** Re-verifies a range as an outside checker would: links, hashes and signatures. */
export async function replayAuditRange(
  prisma: Prisma,
  tenantId: string,
  range: { fromSeq?: number; toSeq?: number },
): Promise<z.infer<typeof AuditReplay>> {
  const r = await loadRange(prisma, tenantId, range);
  // A page at a time, so that a range of thousands of events does not hold the process's other
  // requests for the whole walk.
  const verifier = await chainVerifierFrom(prisma, tenantId, r.anchor);
  for (let i = 0; i < r.rows.length && !verifier.verdict.firstBroken; i += VERIFY_PAGE) {
    if (i > 0) await nextTurn();
    verifier.push(r.rows.slice(i, i + VERIFY_PAGE).map(toChainedEvent));
  }
  const verdict = verifier.verdict;
  // Every agent decision recorded in the range is re-executed from its stored input and facts.
  const decisions = await replayDecisions(
    prisma,
    tenantId,
    r.rows.filter((e) => e.action === 'agent.decision_recorded'),
  );
  return {
    object: 'svc.audit_trail.replay',
    valid: verdict.valid,
    checked: verdict.checked,
    range: { fromSeq: r.fromSeq, toSeq: r.toSeq },
    firstBroken: verdict.firstBroken,
    decisions: { replayed: decisions.replayed, mismatched: decisions.mismatched },
  };
}
