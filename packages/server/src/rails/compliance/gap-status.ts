import { REQUIREMENT_STATUSES } from '@svc/contract';
import type { Tx } from '../../db/client.ts';
import { type RequirementStatus, requirementKey } from './questions.ts';

/**
 * What an approved gap analysis says about the controls of its framework, for the readers that
 * rate controls by it (the trust posture, the audit engine, the reports' posture): the latest
 * approved gap analysis of each framework, with each control's requirement status, and the one
 * rule that turns a status (and whether unexpired evidence cites the control) into a rating.
 */

/** The latest approved gap analysis of one framework. */
export interface ApprovedGap {
  assessmentId: string;
  framework: string;
  systemId: string;
  dictionaryVersion: string | null;
  approvedAt: Date;
  /** Control id -> the requirement status its answer gives (`req.<control>`); controls left unanswered are absent. */
  statuses: Map<string, RequirementStatus>;
}

const REQUIREMENT_PREFIX = requirementKey('');
const isRequirementStatus = (v: unknown): v is RequirementStatus =>
  typeof v === 'string' && (REQUIREMENT_STATUSES as readonly string[]).includes(v);

/**
 * The latest approved gap analysis of each of `frameworks` (the latest approval; of two approved
 * at the same instant, the greater id), read through a client already scoped to the tenant.
 * `asOf` leaves out approvals after that instant (an audit run reads what was true when it
 * started); `systemId` only counts the gap analyses of that AI system. Approval freezes the
 * answers, so what is read is what was approved.
 */
export async function latestApprovedGaps(
  db: Tx,
  frameworks: readonly string[],
  opts: { asOf?: Date; systemId?: string | null } = {},
): Promise<Map<string, ApprovedGap>> {
  const out = new Map<string, ApprovedGap>();
  if (frameworks.length === 0) return out;
  const approved = await db.assessment.findMany({
    where: {
      type: 'gap-analysis',
      status: 'approved',
      framework: { in: [...frameworks] },
      ...(opts.asOf ? { approvedAt: { lte: opts.asOf } } : { approvedAt: { not: null } }),
      ...(opts.systemId ? { systemId: opts.systemId } : {}),
    },
    select: { id: true, framework: true, systemId: true, dictionaryVersion: true, approvedAt: true },
    orderBy: [{ approvedAt: 'desc' }, { id: 'desc' }],
  });
  for (const a of approved) {
    if (!a.framework || !a.approvedAt || out.has(a.framework)) continue;
    const items = await db.assessmentItem.findMany({
      where: { assessmentId: a.id, questionKey: { startsWith: REQUIREMENT_PREFIX } },
      select: { questionKey: true, value: true },
      orderBy: { questionKey: 'asc' },
    });
    const statuses = new Map<string, RequirementStatus>();
    for (const i of items) if (isRequirementStatus(i.value)) statuses.set(i.questionKey.slice(REQUIREMENT_PREFIX.length), i.value);
    out.set(a.framework, {
      assessmentId: a.id,
      framework: a.framework,
      systemId: a.systemId,
      dictionaryVersion: a.dictionaryVersion,
      approvedAt: a.approvedAt,
      statuses,
    });
  }
  return out;
}

export type ControlRating = 'passing' | 'partial' | 'failing' | 'not_evidenced';

/**
 * A control's rating. The latest approved gap analysis of its framework decides for the controls
 * it assessed: non-compliant is failing, partially compliant partial, compliant passing when
 * unexpired evidence cites the control (else not evidenced); a control it did not assess, or
 * assessed as not applicable, is passing with unexpired evidence and not evidenced without.
 */
export function controlRating(requirement: string | undefined | null, evidenced: boolean): ControlRating {
  if (requirement === 'non_compliant') return 'failing';
  if (requirement === 'partially_compliant') return 'partial';
  return evidenced ? 'passing' : 'not_evidenced';
}

/** The score of a set of ratings: a passing control counts 1, a partial one 1/2, the others 0. */
export const ratingPoints = (r: ControlRating): number => (r === 'passing' ? 1 : r === 'partial' ? 0.5 : 0);
