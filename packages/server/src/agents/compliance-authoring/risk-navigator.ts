import { groupAAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { cmp, iso, notFound, pinnedKeys, tenantDb } from './shared.ts';

/**
 * risk-navigator: ranks the tenant's open risks and the control gaps of its activated frameworks
 * (controls without evidence and without a published policy covering them) by
 * severity × exposure × regulatory weight, each factor explained.
 */

export const rules = {
  defaultLimit: 10,
  /** Risk statuses still to address. */
  openStatuses: ['open', 'treated'],
  /** Regulatory weight of a risk's domain. */
  domainWeights: { ai: 1.5, regulatory: 1.5, privacy: 1.4, security: 1.3, 'third-party': 1.1, operational: 1, financial: 1 } as Record<
    string,
    number
  >,
  /** Regulatory weight of a dictionary: binding law above voluntary standards. */
  frameworkWeights: {
    'eu-ai-act': 1.5,
    gdpr: 1.4,
    'uk-gdpr': 1.3,
    nis2: 1.3,
    dora: 1.3,
    'cyber-resilience-act': 1.3,
    'colorado-ai-act': 1.2,
    hipaa: 1.2,
    'ccpa-cpra': 1.2,
    lgpd: 1.2,
    'india-dpdp': 1.2,
    default: 1,
  } as Record<string, number>,
  /** Exposure multipliers of a risk. */
  exposure: { noOwner: 1.2, reviewOverdue: 1.3, noImplementedTreatment: 1.2, treated: 0.8 },
  /** Severity (on the 1-25 scale of likelihood × impact) of a control gap by control category. */
  gapSeverity: {
    'prohibited-practices': 20,
    'risk-management': 12,
    'incident-reporting': 12,
    'human-oversight': 10,
    'data-governance': 10,
    fria: 10,
    conformity: 9,
    documentation: 8,
    transparency: 8,
    default: 6,
  } as Record<string, number>,
  /** Exposure multiplier of a gap that an open risk cites. */
  gapCitedByRisk: 1.5,
};

interface Facts {
  asOf: string;
  framework: string | null;
  risks: {
    id: string;
    title: string;
    domain: string;
    status: string;
    ownerId: string | null;
    controlIds: string[];
    residualLikelihood: number;
    residualImpact: number;
    nextReviewAt: string;
    implementedTreatments: number;
  }[];
  /** Controls of the activated frameworks (or the one asked for) with no evidence and no covering published policy. */
  gaps: { id: string; title: string; category: string; framework: string }[];
  /** Dictionary of every control a risk cites. */
  controlFrameworks: Record<string, string>;
}

export const riskNavigator = defineAgent({
  spec: groupAAgents.riskNavigator,
  ruleSet: { id: 'risk-navigator-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx, input) => ctx.versionOf(input.framework ?? 'eu-ai-act'),
  async gather(ctx, input): Promise<Facts> {
    const db = tenantDb(ctx);
    if (input.framework && !(await ctx.prisma.framework.findUnique({ where: { id: input.framework } })))
      throw notFound(`Framework ${input.framework} was not found.`, 'framework');
    const [risks, activations, evidence, policies] = await Promise.all([
      db.riskRegisterRisk.findMany({ where: { status: { in: rules.openStatuses } }, orderBy: { id: 'asc' } }),
      db.frameworkActivation.findMany({ orderBy: { frameworkId: 'asc' } }),
      db.evidence.findMany({ select: { controlIds: true } }),
      db.policy.findMany({ where: { status: 'published' }, select: { controlIds: true } }),
    ]);
    const treatments = risks.length
      ? await db.riskTreatment.findMany({
          where: { riskId: { in: risks.map((r) => r.id) }, status: 'implemented' },
          select: { riskId: true },
        })
      : [];
    const covered = new Set([...evidence.flatMap((e) => e.controlIds), ...policies.flatMap((p) => p.controlIds)]);
    const scoped = activations.filter((a) => !input.framework || a.frameworkId === input.framework);
    const controls = scoped.length
      ? await ctx.prisma.frameworkControl.findMany({
          where: { versionKey: { in: scoped.map((a) => a.versionKey) } },
          orderBy: [{ versionKey: 'asc' }, { ord: 'asc' }],
        })
      : [];
    const keys = await pinnedKeys(ctx);
    const cited = [...new Set(risks.flatMap((r) => r.controlIds))].sort(cmp);
    const citedRows = cited.length
      ? await ctx.prisma.frameworkControl.findMany({
          where: { id: { in: cited }, versionKey: { in: [...keys.values()] } },
          select: { id: true, versionKey: true },
        })
      : [];
    const controlFrameworks = Object.fromEntries(
      citedRows.map((c) => [c.id, c.versionKey.split('@')[0] as string]).sort(([a], [b]) => cmp(a as string, b as string)),
    );
    const inScope = (r: (typeof risks)[number]) => !input.framework || r.controlIds.some((c) => controlFrameworks[c] === input.framework);
    return {
      asOf: ctx.now.toISOString(),
      framework: input.framework ?? null,
      risks: risks.filter(inScope).map((r) => ({
        id: r.id,
        title: r.title,
        domain: r.domain,
        status: r.status,
        ownerId: r.ownerId,
        controlIds: [...r.controlIds].sort(cmp),
        residualLikelihood: r.residualLikelihood,
        residualImpact: r.residualImpact,
        nextReviewAt: iso(r.nextReviewAt) as string,
        implementedTreatments: treatments.filter((t) => t.riskId === r.id).length,
      })),
      gaps: controls
        .filter((c) => !covered.has(c.id))
        .map((c) => ({ id: c.id, title: c.title, category: c.category, framework: c.versionKey.split('@')[0] as string })),
      controlFrameworks,
    };
  },
  decide(input, facts, r: typeof rules) {
    const asOf = Date.parse(facts.asOf);
    const fwWeight = (f: string) => r.frameworkWeights[f] ?? r.frameworkWeights.default ?? 1;
    const round2 = (x: number) => Math.round(x * 100) / 100;
    const citedByRisk = new Set(facts.risks.flatMap((x) => x.controlIds));
    const items = [
      ...facts.risks.map((risk) => {
        const severity = risk.residualLikelihood * risk.residualImpact;
        const explanation = [`Residual likelihood ${risk.residualLikelihood} × impact ${risk.residualImpact} = ${severity}.`];
        let exposure = 1;
        const apply = (factor: number, why: string) => {
          exposure *= factor;
          explanation.push(`${why}: exposure × ${factor}.`);
        };
        if (!risk.ownerId) apply(r.exposure.noOwner, 'No accountable owner');
        if (Date.parse(risk.nextReviewAt) < asOf) apply(r.exposure.reviewOverdue, `Review overdue since ${risk.nextReviewAt.slice(0, 10)}`);
        if (risk.implementedTreatments === 0) apply(r.exposure.noImplementedTreatment, 'No treatment implemented');
        if (risk.status === 'treated') apply(r.exposure.treated, 'Treated');
        const frameworks = [...new Set(risk.controlIds.map((c) => facts.controlFrameworks[c]).filter((f): f is string => Boolean(f)))].sort(
          (a, b) => fwWeight(b) - fwWeight(a) || cmp(a, b),
        );
        const domainWeight = r.domainWeights[risk.domain] ?? 1;
        const top = frameworks[0];
        const regulatoryWeight = Math.max(domainWeight, top ? fwWeight(top) : 0);
        explanation.push(
          top && fwWeight(top) > domainWeight
            ? `Cites ${top} controls: regulatory weight ${regulatoryWeight}.`
            : `Domain ${risk.domain}: regulatory weight ${regulatoryWeight}.`,
        );
        return {
          kind: 'risk' as const,
          id: risk.id,
          title: risk.title,
          framework: top ?? null,
          score: round2(severity * exposure * regulatoryWeight),
          factors: { severity, exposure: round2(exposure), regulatoryWeight },
          explanation,
        };
      }),
      ...facts.gaps.map((gap) => {
        const severity = r.gapSeverity[gap.category] ?? r.gapSeverity.default ?? 6;
        const explanation = [`Control of category ${gap.category} without evidence or a published policy: severity ${severity}.`];
        const exposure = citedByRisk.has(gap.id) ? r.gapCitedByRisk : 1;
        if (exposure !== 1) explanation.push(`An open risk relies on it: exposure × ${exposure}.`);
        const regulatoryWeight = fwWeight(gap.framework);
        explanation.push(`Dictionary ${gap.framework}: regulatory weight ${regulatoryWeight}.`);
        return {
          kind: 'control_gap' as const,
          id: gap.id,
          title: gap.title,
          framework: gap.framework,
          score: round2(severity * exposure * regulatoryWeight),
          factors: { severity, exposure, regulatoryWeight },
          explanation,
        };
      }),
    ]
      .sort((a, b) => b.score - a.score || (a.kind === b.kind ? 0 : a.kind === 'risk' ? -1 : 1) || cmp(a.id, b.id))
      .slice(0, input.limit ?? r.defaultLimit)
      .map((x, i) => ({ rank: i + 1, ...x }));
    return { items, considered: { risks: facts.risks.length, controlGaps: facts.gaps.length } };
  },
});
