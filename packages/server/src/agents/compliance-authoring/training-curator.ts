import { groupAAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { cmp, invalid, iso, mentionsAny, normalise, notFound, systemRecords, tenantDb } from './shared.ts';

/**
 * training-curator: the modules of the catalogue a role (and the traits of the systems the person
 * works on) calls for, minus those the person's valid training records cover, by priority.
 */

type Trait =
  | 'interactsWithPeople'
  | 'generatesSyntheticContent'
  | 'emotionRecognition'
  | 'biometricCategorisation'
  | 'deepFake'
  | 'generalPurposeModel'
  | 'highRisk';

interface Module {
  id: string;
  title: string;
  hours: number;
  basePriority: number;
  /** Roles the module is required of; `all` for everyone. */
  roles: string[];
  /** System traits that add the module whatever the role. */
  traits: Trait[];
  references: string[];
  /** What a completed tenant module must cite (framework and reference) or be titled to cover this one. */
  covers: { framework: string; reference: string }[];
  titleKeywords: string[];
  reason: string;
}

export const rules = {
  roles: ['developer', 'deployer-operator', 'executive', 'compliance', 'data-protection', 'procurement', 'hr', 'general'],
  /** Priority added per system of the person showing a trait the module answers. */
  traitBonus: 10,
  /** Assessment types of a system that make it high-risk for training purposes. */
  highRiskAssessmentTypes: ['fria', 'conformity'],
  modules: [
    {
      id: 'ai-literacy-foundations',
      title: 'AI literacy foundations',
      hours: 2,
      basePriority: 100,
      roles: ['all'],
      traits: [],
      references: ['eu-ai-act art-4'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-4' }],
      titleKeywords: ['ai literacy'],
      reason: 'Art. 4 requires a sufficient level of AI literacy of every person dealing with AI systems.',
    },
    {
      id: 'ai-governance-leadership',
      title: 'AI governance and accountability for leaders',
      hours: 1.5,
      basePriority: 85,
      roles: ['executive', 'compliance'],
      traits: [],
      references: ['eu-ai-act art-17', 'iso-iec-42001 5.1'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-17' }],
      titleKeywords: ['ai governance'],
      reason: 'Leaders answer for the quality management and accountability framework of Art. 17.',
    },
    {
      id: 'responsible-ai-engineering',
      title: 'Risk management, data governance and robustness for AI engineers',
      hours: 4,
      basePriority: 85,
      roles: ['developer'],
      traits: [],
      references: ['eu-ai-act art-9', 'eu-ai-act art-10', 'eu-ai-act art-15'],
      covers: [
        { framework: 'eu-ai-act', reference: 'art-9' },
        { framework: 'eu-ai-act', reference: 'art-15' },
      ],
      titleKeywords: ['responsible ai engineering', 'ai risk management'],
      reason: 'Developers build the risk management, data governance and robustness of Art. 9, 10 and 15.',
    },
    {
      id: 'human-oversight-practice',
      title: 'Human oversight in practice',
      hours: 2,
      basePriority: 85,
      roles: ['deployer-operator'],
      traits: ['highRisk'],
      references: ['eu-ai-act art-14', 'eu-ai-act art-26-2'],
      covers: [
        { framework: 'eu-ai-act', reference: 'art-14' },
        { framework: 'eu-ai-act', reference: 'art-26-2' },
      ],
      titleKeywords: ['human oversight'],
      reason: 'Art. 26(2) requires deployers to assign oversight to people with the competence, training and authority to exercise it.',
    },
    {
      id: 'deployer-obligations',
      title: 'Deployer obligations under the AI Act',
      hours: 1.5,
      basePriority: 75,
      roles: ['deployer-operator', 'compliance'],
      traits: [],
      references: ['eu-ai-act art-26', 'eu-ai-act art-27'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-26' }],
      titleKeywords: ['deployer obligations'],
      reason: 'Operators and compliance staff carry out the deployer duties of Art. 26 and 27.',
    },
    {
      id: 'bias-and-data-quality',
      title: 'Bias examination and data quality',
      hours: 3,
      basePriority: 70,
      roles: ['developer', 'data-protection'],
      traits: ['highRisk'],
      references: ['eu-ai-act art-10-2', 'eu-ai-act art-4a'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-10' }],
      titleKeywords: ['bias'],
      reason:
        'Art. 10 requires data sets examined for possible biases; Art. 4a sets the safeguards for special-category data used to find them.',
    },
    {
      id: 'gdpr-for-ai',
      title: 'Personal data in AI systems',
      hours: 2,
      basePriority: 70,
      roles: ['data-protection', 'developer', 'compliance', 'hr'],
      traits: [],
      references: ['gdpr art-22', 'gdpr art-35'],
      covers: [
        { framework: 'gdpr', reference: 'art-22' },
        { framework: 'gdpr', reference: 'art-35' },
      ],
      titleKeywords: ['gdpr', 'data protection'],
      reason: 'Automated decisions and impact assessments of GDPR Art. 22 and 35 apply to AI processing personal data.',
    },
    {
      id: 'transparency-duties',
      title: 'Transparency towards people interacting with AI',
      hours: 1,
      basePriority: 60,
      roles: ['compliance'],
      traits: ['interactsWithPeople', 'generatesSyntheticContent', 'deepFake'],
      references: ['eu-ai-act art-50'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-50' }],
      titleKeywords: ['transparency'],
      reason: 'Art. 50 requires people to be told they interact with AI and synthetic content to be marked.',
    },
    {
      id: 'biometric-safeguards',
      title: 'Biometric and emotion-recognition safeguards',
      hours: 1.5,
      basePriority: 80,
      roles: [],
      traits: ['emotionRecognition', 'biometricCategorisation'],
      references: ['eu-ai-act art-5-1-f', 'eu-ai-act art-26-10', 'eu-ai-act art-50-3'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-50-3' }],
      titleKeywords: ['biometric', 'emotion recognition'],
      reason: 'Emotion recognition and biometric categorisation are restricted by Art. 5 and require a notice under Art. 50(3).',
    },
    {
      id: 'gpai-provider-duties',
      title: 'Duties of general-purpose AI model providers',
      hours: 2,
      basePriority: 65,
      roles: ['developer', 'compliance'],
      traits: ['generalPurposeModel'],
      references: ['eu-ai-act art-53', 'eu-ai-act art-55'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-53' }],
      titleKeywords: ['general purpose ai', 'gpai'],
      reason: 'Providers of general-purpose models document them and publish a training-content summary (Art. 53).',
    },
    {
      id: 'incident-reporting',
      title: 'Recognising and reporting serious incidents',
      hours: 1,
      basePriority: 60,
      roles: ['deployer-operator', 'compliance'],
      traits: ['highRisk'],
      references: ['eu-ai-act art-73', 'eu-ai-act art-26-5'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-73' }],
      titleKeywords: ['incident'],
      reason: 'Serious incidents are reported within the Art. 73 deadlines; operators are the first to see them.',
    },
    {
      id: 'ai-procurement',
      title: 'Procuring AI systems',
      hours: 1,
      basePriority: 70,
      roles: ['procurement'],
      traits: [],
      references: ['eu-ai-act art-25', 'eu-ai-act art-26-1'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-25' }],
      titleKeywords: ['procurement'],
      reason: 'Buyers check provider documentation and the responsibilities along the value chain (Art. 25).',
    },
    {
      id: 'ai-in-employment',
      title: 'AI in recruitment and employment decisions',
      hours: 1.5,
      basePriority: 80,
      roles: ['hr'],
      traits: [],
      references: ['eu-ai-act annex-iii', 'eu-ai-act art-26-7'],
      covers: [{ framework: 'eu-ai-act', reference: 'art-26-7' }],
      titleKeywords: ['employment', 'recruitment'],
      reason: 'Annex III point 4 makes AI in employment high-risk and Art. 26(7) requires workers to be informed.',
    },
  ] as Module[],
};

interface Facts {
  asOf: string;
  systems: { systemId: string; traits: Trait[] }[];
  person: { id: string; name: string } | null;
  /** The person's completions, with the framework references and title of the tenant module completed. */
  records: {
    id: string;
    moduleId: string;
    title: string;
    references: { framework: string; reference: string }[];
    completedAt: string;
    expiresAt: string | null;
  }[];
}

const refKey = (framework: string, reference: string) => `${normalise(framework)}|${normalise(reference)}`;

export const trainingCurator = defineAgent({
  spec: groupAAgents.trainingCurator,
  ruleSet: { id: 'training-curator-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('eu-ai-act'),
  async gather(ctx, input): Promise<Facts> {
    if (!rules.roles.includes(input.role))
      throw invalid('role', `Role ${input.role} is not in the catalogue; use one of ${rules.roles.join(', ')}.`);
    const db = tenantDb(ctx);
    const systems: Facts['systems'] = [];
    for (const systemId of [...new Set(input.systems ?? [])].sort(cmp)) {
      const s = await systemRecords(ctx, systemId);
      const traits = (
        [
          'interactsWithPeople',
          'generatesSyntheticContent',
          'emotionRecognition',
          'biometricCategorisation',
          'deepFake',
          'generalPurposeModel',
        ] as const
      ).filter((k) => s.profile?.[k] === true) as Trait[];
      if (s.assessments.some((a) => rules.highRiskAssessmentTypes.includes(a.type))) traits.push('highRisk');
      systems.push({ systemId, traits });
    }
    let person: Facts['person'] = null;
    let records: Facts['records'] = [];
    if (input.personId) {
      const user = await db.stakeholderUser.findFirst({ where: { id: input.personId } });
      if (!user) throw notFound(`Person ${input.personId} was not found.`, 'personId');
      person = { id: user.id, name: user.name };
      const rows = await db.trainingRecord.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
      const modules = rows.length ? await db.trainingModule.findMany({ where: { id: { in: rows.map((r) => r.moduleId) } } }) : [];
      records = rows.map((r) => {
        const m = modules.find((x) => x.id === r.moduleId);
        return {
          id: r.id,
          moduleId: r.moduleId,
          title: m?.title ?? r.moduleTitle,
          references: ((m?.frameworkRefs ?? []) as { framework: string; reference: string }[]).map((x) => ({
            framework: x.framework,
            reference: x.reference,
          })),
          completedAt: iso(r.completedAt) as string,
          expiresAt: iso(r.expiresAt),
        };
      });
    }
    return { asOf: ctx.now.toISOString(), systems, person, records };
  },
  decide(input, facts, r: typeof rules) {
    const asOf = Date.parse(facts.asOf);
    const valid = facts.records.filter((x) => !x.expiresAt || Date.parse(x.expiresAt) > asOf);
    const plan: { moduleId: string; title: string; priority: number; hours: number; reasons: string[]; references: string[] }[] = [];
    const covered: { moduleId: string; recordId: string; expiresAt: string | null }[] = [];
    for (const m of r.modules) {
      const reasons: string[] = [];
      if (m.roles.includes('all') || m.roles.includes(input.role)) reasons.push(m.reason);
      const bySystem = facts.systems.filter((s) => s.traits.some((t) => m.traits.includes(t)));
      for (const s of bySystem) reasons.push(`System ${s.systemId} is ${s.traits.filter((t) => m.traits.includes(t)).join(', ')}.`);
      if (reasons.length === 0) continue;
      const wanted = new Set(m.covers.map((c) => refKey(c.framework, c.reference)));
      const record = valid
        .filter(
          (x) => x.references.some((ref) => wanted.has(refKey(ref.framework, ref.reference))) || mentionsAny(x.title, m.titleKeywords),
        )
        .sort((a, b) => cmp(b.completedAt, a.completedAt) || cmp(a.id, b.id))[0];
      if (record) {
        covered.push({ moduleId: m.id, recordId: record.id, expiresAt: record.expiresAt });
        continue;
      }
      plan.push({
        moduleId: m.id,
        title: m.title,
        priority: m.basePriority + r.traitBonus * bySystem.length,
        hours: m.hours,
        reasons,
        references: m.references,
      });
    }
    plan.sort((a, b) => b.priority - a.priority || cmp(a.moduleId, b.moduleId));
    return {
      role: input.role,
      personId: facts.person?.id ?? null,
      plan,
      covered,
      totalHours: Math.round(plan.reduce((n, p) => n + p.hours, 0) * 10) / 10,
    };
  },
});
