import { groupBAgents, riskRatingOf } from '@svc/contract';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { applyTreatment } from '../../rails/risk-register/service.ts';
import { defineAgent } from '../types.ts';
import { addDays, cmp, iso, round } from './common.ts';

/**
 * The risk officer: the register recomputed on the 5x5 matrix with the register's own treatment
 * arithmetic (`applyTreatment`), counted per band, and the treatable risks ranked with a plan.
 */

type TreatmentType = 'accept' | 'mitigate' | 'transfer' | 'avoid';
interface Option {
  type: TreatmentType;
  description: string;
  likelihoodReduction: number;
  impactReduction: number;
}

const rules = {
  /** Residual score above which a risk needs treatment (inclusive of the appetite itself: at 9 a 3x3 is tolerated). */
  appetite: 9,
  defaultLimit: 5,
  /** A risk in these states is not worked on: accepted by its owner, or closed. */
  inactiveStatuses: ['accepted', 'closed'],
  /** Ranking weight per domain: regulatory and AI risks carry legal exposure beyond their matrix score. */
  domainWeights: { ai: 1.2, privacy: 1.2, regulatory: 1.3, security: 1.1, 'third-party': 1, operational: 1, financial: 1 } as Record<
    string,
    number
  >,
  /** Days from today to the target date of a plan, by the band of the current residual. */
  targetDays: { critical: 30, high: 60, medium: 90, low: 180 } as Record<string, number>,
  /** Treatment options per domain when no planned treatment lowers the residual enough. */
  catalogue: {
    ai: [
      {
        type: 'mitigate',
        description: 'Add human oversight of the system’s decisions and a bias test before each release.',
        likelihoodReduction: 2,
        impactReduction: 0,
      },
      {
        type: 'mitigate',
        description: 'Limit the system to advisory use with a documented fallback procedure.',
        likelihoodReduction: 0,
        impactReduction: 1,
      },
    ],
    privacy: [
      {
        type: 'mitigate',
        description: 'Minimise and pseudonymise the personal data processed; enforce retention.',
        likelihoodReduction: 1,
        impactReduction: 1,
      },
    ],
    security: [
      {
        type: 'mitigate',
        description: 'Harden access (MFA, least privilege) and monitor for misuse.',
        likelihoodReduction: 2,
        impactReduction: 0,
      },
      { type: 'transfer', description: 'Cover the residual exposure with cyber insurance.', likelihoodReduction: 0, impactReduction: 1 },
    ],
    'third-party': [
      {
        type: 'mitigate',
        description: 'Add contractual security and audit clauses and reassess the vendor yearly.',
        likelihoodReduction: 1,
        impactReduction: 0,
      },
      {
        type: 'transfer',
        description: 'Require the vendor to carry liability cover for the service.',
        likelihoodReduction: 0,
        impactReduction: 1,
      },
    ],
    operational: [
      {
        type: 'mitigate',
        description: 'Document and test a continuity procedure for the process.',
        likelihoodReduction: 1,
        impactReduction: 1,
      },
    ],
    regulatory: [
      {
        type: 'mitigate',
        description: 'Assign an owner for the obligation and track it to closure with evidence.',
        likelihoodReduction: 2,
        impactReduction: 0,
      },
    ],
    financial: [{ type: 'transfer', description: 'Hedge or insure the exposure.', likelihoodReduction: 0, impactReduction: 2 }],
  } as Record<string, Option[]>,
  steps: {
    owner: 'Confirm the accountable owner of the risk ({owner}).',
    implement: 'Implement the {type} treatment: {description}',
    record: 'Record the treatment as implemented in the risk register so the residual is recomputed.',
    review: 'Review the risk by {targetDate}; expected residual {projected} ({band}).',
    escalate: 'The projected residual stays above the appetite of {appetite}: escalate for a further treatment or a documented acceptance.',
  },
};

interface RiskFact {
  id: string;
  title: string;
  domain: string;
  status: string;
  ownerId: string | null;
  inherentLikelihood: number;
  inherentImpact: number;
}
interface TreatmentFact extends Option {
  id: string;
  riskId: string;
  status: string;
  implementedAt: string | null;
}
interface Facts {
  asOf: string;
  risks: RiskFact[];
  treatments: TreatmentFact[];
}

const pointOf = (likelihood: number, impact: number) => ({
  likelihood,
  impact,
  score: likelihood * impact,
  band: riskRatingOf(likelihood * impact),
});
const fill = (t: string, vars: Record<string, string | number>) => t.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));

export const riskOfficer = defineAgent({
  spec: groupBAgents.riskOfficer,
  ruleSet: { id: 'risk-officer-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('iso-iec-23894'),
  async gather(ctx): Promise<Facts> {
    const db = scopeToTenant(ctx.prisma, ctx.tenantId);
    const [risks, treatments] = await Promise.all([
      db.riskRegisterRisk.findMany({ orderBy: { id: 'asc' } }),
      db.riskTreatment.findMany({ orderBy: { id: 'asc' } }),
    ]);
    return {
      asOf: ctx.now.toISOString(),
      risks: risks.map((r) => ({
        id: r.id,
        title: r.title,
        domain: r.domain,
        status: r.status,
        ownerId: r.ownerId,
        inherentLikelihood: r.inherentLikelihood,
        inherentImpact: r.inherentImpact,
      })),
      treatments: treatments.map((t) => ({
        id: t.id,
        riskId: t.riskId,
        type: t.type as TreatmentType,
        description: t.description,
        likelihoodReduction: t.likelihoodReduction,
        impactReduction: t.impactReduction,
        status: t.status,
        implementedAt: iso(t.implementedAt),
      })),
    };
  },
  decide(input, facts, r: typeof rules) {
    const limit = input.limit ?? r.defaultLimit;
    const bands = () => ({ low: 0, medium: 0, high: 0, critical: 0 });
    const inherentCounts = bands();
    const residualCounts = bands();
    const treatable: { rank: number; [k: string]: unknown }[] = [];
    const ranked: { priority: number; residual: number; inherent: number; id: string; row: Record<string, unknown> }[] = [];
    const untreatable: { riskId: string; reason: string }[] = [];
    let open = 0;
    let above = 0;

    for (const risk of facts.risks) {
      const own = facts.treatments.filter((t) => t.riskId === risk.id);
      // The residual as the register computes it: implemented treatments in the order they were implemented.
      const implemented = own
        .filter((t) => t.status === 'implemented')
        .sort((a, b) => cmp(a.implementedAt ?? '', b.implementedAt ?? '') || cmp(a.id, b.id));
      let [l, i] = [risk.inherentLikelihood, risk.inherentImpact];
      for (const t of implemented) [l, i] = applyTreatment(l, i, t);
      const inherent = pointOf(risk.inherentLikelihood, risk.inherentImpact);
      const residual = pointOf(l, i);
      inherentCounts[inherent.band]++;
      residualCounts[residual.band]++;
      if (r.inactiveStatuses.includes(risk.status)) continue;
      open++;
      if (residual.score <= r.appetite) continue;
      above++;

      const candidates = [
        ...own.filter((t) => t.status === 'planned').map((t) => ({ option: t as Option, source: 'planned' as const, treatmentId: t.id })),
        ...(r.catalogue[risk.domain] ?? []).map((o) => ({ option: o, source: 'catalogue' as const, treatmentId: null })),
      ]
        .filter((c) => c.option.type !== 'accept')
        .map((c, order) => ({ ...c, order, projected: pointOf(...applyTreatment(l, i, c.option)) }))
        .filter((c) => c.projected.score < residual.score)
        // The option that lowers the residual most; a treatment already planned before a catalogue one.
        .sort((a, b) => a.projected.score - b.projected.score || a.order - b.order);
      const best = candidates[0];
      if (!best) {
        untreatable.push({
          riskId: risk.id,
          reason: `No planned treatment or ${risk.domain} option of the rules lowers the residual ${residual.score}.`,
        });
        continue;
      }
      const targetDate = addDays(facts.asOf, r.targetDays[residual.band] ?? 90);
      const within = best.projected.score <= r.appetite;
      const steps = [
        fill(r.steps.owner, { owner: risk.ownerId ?? 'not named yet' }),
        fill(r.steps.implement, { type: best.option.type, description: best.option.description }),
        r.steps.record,
        fill(r.steps.review, { targetDate, projected: best.projected.score, band: best.projected.band }),
        ...(within ? [] : [fill(r.steps.escalate, { appetite: r.appetite })]),
      ];
      const priority = round(residual.score * (r.domainWeights[risk.domain] ?? 1), 2);
      ranked.push({
        priority,
        residual: residual.score,
        inherent: inherent.score,
        id: risk.id,
        row: {
          riskId: risk.id,
          title: risk.title,
          domain: risk.domain,
          inherent,
          residual,
          controlEffectiveness: round(1 - residual.score / inherent.score, 4),
          priority,
          plan: {
            option: best.option.type as 'mitigate' | 'transfer' | 'avoid',
            source: best.source,
            treatmentId: best.treatmentId,
            description: best.option.description,
            projected: best.projected,
            withinAppetite: within,
            ownerId: risk.ownerId,
            targetDate,
            steps,
          },
        },
      });
    }
    ranked.sort((a, b) => b.priority - a.priority || b.residual - a.residual || b.inherent - a.inherent || cmp(a.id, b.id));
    for (const [n, x] of ranked.slice(0, limit).entries()) treatable.push({ rank: n + 1, ...x.row });

    return {
      asOf: facts.asOf,
      appetite: r.appetite,
      summary: { risks: facts.risks.length, open, inherent: inherentCounts, residual: residualCounts, aboveAppetite: above },
      topRisks: treatable as never,
      untreatable,
    };
  },
  fromEvent: (event) => (event.kind.startsWith('risk.') ? {} : null),
});
