import { groupAAgents } from '@svc/contract';
import { stockCatalogue } from '../../rails/workflows-registry/service.ts';
import { defineAgent } from '../types.ts';
import { cmp, normalise, notFound, sortedUnique, tenantDb } from './shared.ts';

/**
 * workflow-catalogue: scores each workflow of the stock catalogue by its fit to the tenant (the
 * activated frameworks it cites, the controls its steps cite that have no evidence yet) and to
 * the request (framework, stakeholder role, goal words), then composes the best ones into a
 * sequence in the phase order of the compliance cycle, leaving out repeated steps.
 */

export const rules = {
  defaultLimit: 5,
  weights: {
    /** Per activated framework the workflow cites. */
    activatedFramework: 2,
    /** When the workflow cites the framework asked for. */
    requestedFramework: 4,
    /** When the stakeholder asked for takes part. */
    stakeholder: 3,
    /** Times the share of the goal's words found in the workflow's title, category and description. */
    goal: 10,
    /** Per cited control of an activated framework without evidence, up to the cap. */
    gapControl: 0.5,
    gapCap: 4,
  },
  /** Where a tenant with no activated framework starts: these workflows score this much on top. */
  starter: { workflows: ['ai-act-risk-classification', 'evidence-collection'], weight: 1 },
  /** Words of a goal that say nothing about the workflow. */
  stopwords: [
    'the',
    'and',
    'for',
    'our',
    'with',
    'from',
    'into',
    'before',
    'after',
    'prepare',
    'make',
    'want',
    'need',
    'how',
    'what',
    'get',
    'ready',
    'system',
    'systems',
  ],
  /** Goal words and the words of the catalogue they stand for. */
  synonyms: {
    audit: ['assurance', 'audit'],
    breach: ['incident', 'breach'],
    release: ['release', 'model'],
    privacy: ['privacy', 'data protection'],
    supplier: ['vendor', 'supplier'],
  } as Record<string, string[]>,
  /** Phase of each workflow category, in the order the sequence runs them. */
  phases: [
    { phase: 'scope', categories: ['ai-governance'] },
    { phase: 'assess', categories: ['privacy', 'third-party'] },
    { phase: 'govern', categories: ['governance', 'people'] },
    { phase: 'operate', categories: ['security-operations', 'incident'] },
    { phase: 'assure', categories: ['assurance'] },
  ],
};

interface Workflow {
  id: string;
  title: string;
  category: string;
  description: string;
  stakeholders: string[];
  frameworks: string[];
  steps: { key: string; owner: string; refs: { framework: string; kind: string; ref: string }[] }[];
}
interface Facts {
  catalogueVersion: string;
  workflows: Workflow[];
  activated: string[];
  evidencedControls: string[];
}

export const workflowCatalogue = defineAgent({
  spec: groupAAgents.workflowCatalogue,
  ruleSet: { id: 'workflow-catalogue-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx, input) => ctx.versionOf(input.framework ?? 'iso-iec-42001'),
  async gather(ctx, input): Promise<Facts> {
    if (input.framework && !(await ctx.prisma.framework.findUnique({ where: { id: input.framework } })))
      throw notFound(`Framework ${input.framework} was not found.`, 'framework');
    const db = tenantDb(ctx);
    const [activations, evidence] = await Promise.all([
      db.frameworkActivation.findMany({ orderBy: { frameworkId: 'asc' } }),
      db.evidence.findMany({ select: { controlIds: true } }),
    ]);
    const cat = stockCatalogue();
    return {
      catalogueVersion: cat.catalogue.version,
      workflows: cat.records.map((w) => ({
        id: w.id,
        title: w.title,
        category: w.category,
        description: w.description,
        stakeholders: [...w.stakeholders],
        frameworks: [...w.frameworks],
        steps: w.steps.map((s) => ({
          key: s.key,
          owner: s.owner,
          refs: s.refs.map((r) => ({ framework: r.framework, kind: r.kind, ref: r.ref })),
        })),
      })),
      activated: activations.map((a) => a.frameworkId),
      evidencedControls: sortedUnique(evidence.flatMap((e) => e.controlIds)),
    };
  },
  decide(input, facts, r: typeof rules) {
    const w = r.weights;
    const evidenced = new Set(facts.evidencedControls);
    const goalWords = input.goal
      ? sortedUnique(
          normalise(input.goal)
            .split(' ')
            .filter((x) => x.length >= 3 && !r.stopwords.includes(x)),
        )
      : [];
    const scored = facts.workflows.map((wf) => {
      const reasons: string[] = [];
      let score = 0;
      const activated = wf.frameworks.filter((f) => facts.activated.includes(f));
      if (activated.length) {
        score += w.activatedFramework * activated.length;
        reasons.push(`Cites activated frameworks: ${activated.join(', ')} (+${w.activatedFramework * activated.length}).`);
      }
      if (input.framework && wf.frameworks.includes(input.framework)) {
        score += w.requestedFramework;
        reasons.push(`Cites ${input.framework} (+${w.requestedFramework}).`);
      }
      if (input.stakeholder && wf.stakeholders.includes(input.stakeholder)) {
        score += w.stakeholder;
        reasons.push(`${input.stakeholder} takes part (+${w.stakeholder}).`);
      }
      if (goalWords.length) {
        const text = ` ${normalise(`${wf.title} ${wf.category} ${wf.description} ${wf.id}`)} `;
        const hits = goalWords.filter((g) => [g, ...(r.synonyms[g] ?? [])].some((x) => text.includes(` ${normalise(x)}`)));
        if (hits.length) {
          const add = Math.round(((w.goal * hits.length) / goalWords.length) * 100) / 100;
          score += add;
          reasons.push(`Matches the goal: ${hits.join(', ')} (+${add}).`);
        }
      }
      if (facts.activated.length === 0 && r.starter.workflows.includes(wf.id)) {
        score += r.starter.weight;
        reasons.push(`A starting point for a tenant without an activated framework (+${r.starter.weight}).`);
      }
      const gapControls = sortedUnique(
        wf.steps.flatMap((s) =>
          s.refs.filter((x) => x.kind === 'control' && facts.activated.includes(x.framework) && !evidenced.has(x.ref)).map((x) => x.ref),
        ),
      );
      if (gapControls.length) {
        const add = Math.min(w.gapCap, w.gapControl * gapControls.length);
        score += add;
        reasons.push(`Would produce evidence for ${gapControls.length} uncovered controls (+${add}).`);
      }
      return { wf, score: Math.round(score * 100) / 100, reasons, gapControls };
    });
    const limit = input.limit ?? r.defaultLimit;
    const ranked = scored
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || cmp(a.wf.id, b.wf.id))
      .slice(0, limit);
    const phaseOf = (category: string) => {
      const i = r.phases.findIndex((p) => p.categories.includes(category));
      return { index: i < 0 ? r.phases.length : i, name: i < 0 ? 'other' : (r.phases[i]?.phase as string) };
    };
    const seen = new Set<string>();
    const sequence = [...ranked]
      .sort((a, b) => phaseOf(a.wf.category).index - phaseOf(b.wf.category).index || b.score - a.score || cmp(a.wf.id, b.wf.id))
      .map((x, i) => ({
        position: i + 1,
        workflowId: x.wf.id,
        phase: phaseOf(x.wf.category).name,
        steps: x.wf.steps
          .filter((s) => {
            // A step owned by the same role citing the same references was run by an earlier workflow.
            const k = `${s.owner}|${s.refs
              .map((ref) => `${ref.framework}:${ref.ref}`)
              .sort(cmp)
              .join(',')}`;
            if (seen.has(k)) return false;
            seen.add(k);
            return true;
          })
          .map((s) => s.key),
      }));
    return {
      recommendations: ranked.map((x, i) => ({
        rank: i + 1,
        workflowId: x.wf.id,
        title: x.wf.title,
        score: x.score,
        reasons: x.reasons,
        gapControls: x.gapControls,
      })),
      sequence,
    };
  },
});
