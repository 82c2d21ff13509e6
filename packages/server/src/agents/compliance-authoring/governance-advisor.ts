import { groupAAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { cmp, iso, normalise, sortedUnique, tenantDb } from './shared.ts';

/**
 * governance-advisor: checks the governance records (RACI, decision rights, approvals,
 * delegations, conflicts of interest) against the rules below and ranks the findings by severity
 * weight × the number of records concerned.
 */

type Severity = 'high' | 'medium' | 'low';
interface Check {
  id: string;
  scope: 'systems' | 'decision-rights' | 'approvals' | 'delegations' | 'conflicts';
  severity: Severity;
  recommendation: string;
}

export const rules = {
  severityWeights: { high: 10, medium: 5, low: 2 } as Record<Severity, number>,
  /** Records counted towards a finding's score at most. */
  countCap: 5,
  /** Assessment types and profile traits that mark a system high-risk. */
  highRisk: { assessmentTypes: ['fria', 'conformity'], profileTraits: ['biometricCategorisation', 'emotionRecognition'] },
  /** Decision types every organisation deploying AI should have a decision right for. */
  requiredDecisionTypes: ['model_release', 'policy_exception'],
  approvalMaxDays: 30,
  conflictReviewDays: 90,
  checks: [
    {
      id: 'accountable-owner',
      scope: 'systems',
      severity: 'high',
      recommendation: 'Assign exactly one active accountable owner to each high-risk AI system.',
    },
    {
      id: 'conflicted-approver',
      scope: 'conflicts',
      severity: 'high',
      recommendation: 'Reassign the approval step: the approver declared an open conflict of interest about its subject.',
    },
    {
      id: 'expired-delegation',
      scope: 'delegations',
      severity: 'medium',
      recommendation: 'Revoke or renew delegations whose validity ended.',
    },
    {
      id: 'delegation-to-inactive',
      scope: 'delegations',
      severity: 'medium',
      recommendation: 'Revoke delegations to people who are no longer active.',
    },
    {
      id: 'missing-decision-right',
      scope: 'decision-rights',
      severity: 'medium',
      recommendation: 'Name who decides each required decision type.',
    },
    {
      id: 'inactive-right-holder',
      scope: 'decision-rights',
      severity: 'medium',
      recommendation: 'Move decision rights held by inactive people to active ones.',
    },
    {
      id: 'stale-approval',
      scope: 'approvals',
      severity: 'medium',
      recommendation: 'Decide or withdraw approvals pending longer than the allowed time.',
    },
    {
      id: 'stale-conflict',
      scope: 'conflicts',
      severity: 'low',
      recommendation: 'Review open conflicts of interest and mark them managed or closed.',
    },
  ] as Check[],
};

interface Facts {
  asOf: string;
  highRiskSystems: string[];
  assignments: { id: string; personId: string; systemId: string | null; raci: string; control: string | null }[];
  people: { id: string; status: string }[];
  delegations: { id: string; toPersonId: string; status: string; validUntil: string }[];
  conflicts: { id: string; personId: string; subject: string; status: string; createdAt: string }[];
  approvals: { id: string; subject: string; approverIds: string[]; currentStep: number; status: string; createdAt: string }[];
  decisionRights: { id: string; decisionType: string; personId: string | null; status: string }[];
}

export const governanceAdvisor = defineAgent({
  spec: groupAAgents.governanceAdvisor,
  ruleSet: { id: 'governance-advisor-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('iso-iec-42001'),
  async gather(ctx): Promise<Facts> {
    const db = tenantDb(ctx);
    const [assessments, profiles, assignments, people, delegations, conflicts, approvals, rights] = await Promise.all([
      db.assessment.findMany({ where: { type: { in: rules.highRisk.assessmentTypes } }, select: { systemId: true } }),
      db.publicDisclosureProfile.findMany({ orderBy: { systemId: 'asc' } }),
      db.stakeholderAssignment.findMany({ where: { status: 'active' }, orderBy: { id: 'asc' } }),
      db.stakeholderUser.findMany({ orderBy: { id: 'asc' }, select: { id: true, status: true } }),
      db.governanceDelegation.findMany({ orderBy: { id: 'asc' } }),
      db.governanceConflict.findMany({ orderBy: { id: 'asc' } }),
      db.governanceApproval.findMany({ where: { status: 'pending' }, orderBy: { id: 'asc' } }),
      db.governanceDecisionRight.findMany({ orderBy: { id: 'asc' } }),
    ]);
    const flagged = profiles
      .filter((p) => rules.highRisk.profileTraits.some((t) => (p as unknown as Record<string, unknown>)[t] === true))
      .map((p) => p.systemId);
    return {
      asOf: ctx.now.toISOString(),
      highRiskSystems: sortedUnique([...assessments.map((a) => a.systemId), ...flagged]),
      assignments: assignments.map((a) => ({ id: a.id, personId: a.personId, systemId: a.systemId, raci: a.raci, control: a.control })),
      people,
      delegations: delegations.map((d) => ({
        id: d.id,
        toPersonId: d.toPersonId,
        status: d.status,
        validUntil: iso(d.validUntil) as string,
      })),
      conflicts: conflicts.map((c) => ({
        id: c.id,
        personId: c.personId,
        subject: c.subject,
        status: c.status,
        createdAt: iso(c.createdAt) as string,
      })),
      approvals: approvals.map((a) => ({
        id: a.id,
        subject: a.subject,
        approverIds: [...a.approverIds],
        currentStep: a.currentStep,
        status: a.status,
        createdAt: iso(a.createdAt) as string,
      })),
      decisionRights: rights.map((r) => ({ id: r.id, decisionType: r.decisionType, personId: r.personId, status: r.status })),
    };
  },
  decide(input, facts, r: typeof rules) {
    const asOf = Date.parse(facts.asOf);
    const day = 86_400_000;
    const active = new Set(facts.people.filter((p) => p.status === 'active').map((p) => p.id));
    const findings: Record<string, string[]> = {
      'accountable-owner': facts.highRiskSystems.filter(
        (s) =>
          facts.assignments.filter((a) => a.systemId === s && a.control === null && a.raci === 'accountable' && active.has(a.personId))
            .length !== 1,
      ),
      'conflicted-approver': facts.approvals
        .filter((a) => {
          const approver = a.approverIds[a.currentStep - 1];
          return facts.conflicts.some(
            (c) => c.status === 'open' && c.personId === approver && normalise(c.subject) === normalise(a.subject),
          );
        })
        .map((a) => a.id),
      'expired-delegation': facts.delegations.filter((d) => d.status === 'active' && Date.parse(d.validUntil) < asOf).map((d) => d.id),
      'delegation-to-inactive': facts.delegations
        .filter((d) => d.status === 'active' && Date.parse(d.validUntil) >= asOf && !active.has(d.toPersonId))
        .map((d) => d.id),
      'missing-decision-right': r.requiredDecisionTypes.filter(
        (t) => !facts.decisionRights.some((d) => d.status === 'active' && d.decisionType === t),
      ),
      'inactive-right-holder': facts.decisionRights
        .filter((d) => d.status === 'active' && d.personId && !active.has(d.personId))
        .map((d) => d.id),
      'stale-approval': facts.approvals.filter((a) => asOf - Date.parse(a.createdAt) > r.approvalMaxDays * day).map((a) => a.id),
      'stale-conflict': facts.conflicts
        .filter((c) => c.status === 'open' && asOf - Date.parse(c.createdAt) > r.conflictReviewDays * day)
        .map((c) => c.id),
    };
    const scope = input.scope ?? 'all';
    const checks = r.checks.filter((c) => scope === 'all' || c.scope === scope);
    const recommendations = checks
      .map((c) => ({ check: c, subjects: sortedUnique(findings[c.id] ?? []) }))
      .filter((x) => x.subjects.length > 0)
      .map((x) => ({
        rule: x.check.id,
        severity: x.check.severity,
        score: r.severityWeights[x.check.severity] * Math.min(x.subjects.length, r.countCap),
        subjects: x.subjects,
        recommendation: x.check.recommendation,
      }))
      .sort((a, b) => b.score - a.score || r.severityWeights[b.severity] - r.severityWeights[a.severity] || cmp(a.rule, b.rule))
      .map((x, i) => ({ rank: i + 1, ...x }));
    const failing = new Set(recommendations.map((x) => x.rule));
    return {
      recommendations,
      checked: checks.map((c) => c.id),
      passed: checks.filter((c) => !failing.has(c.id)).map((c) => c.id),
    };
  },
});
