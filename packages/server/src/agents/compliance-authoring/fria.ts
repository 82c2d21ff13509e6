import { groupAAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { attr, completeness, eventMatches, evidenceLines, type SystemFacts, section, systemRecords } from './shared.ts';

/**
 * fria: the EU AI Act Art. 27(1) fundamental-rights impact assessment of a system, each of the
 * six sections drafted from the records the rules name for it (profile, evidence matching the
 * section's keywords or controls, the risk register, RACI assignments, risk treatments).
 */

export const rules = {
  /** Roles of the disclosure profile that Art. 27 applies to (deployers). */
  requiredForRoles: ['deployer', 'provider_and_deployer'],
  sections: [
    {
      id: 'a-processes',
      ref: 'EU AI Act Art. 27(1)(a)',
      title: "Description of the deployer's processes in which the system is used in line with its intended purpose",
      hint: 'Record the system profile with its purpose and deployer context.',
      parts: ['profile.purpose', 'profile.context'],
      mode: 'all',
    },
    {
      id: 'b-period-frequency',
      ref: 'EU AI Act Art. 27(1)(b)',
      title: 'Period of time within which, and frequency with which, the system is intended to be used',
      hint: 'Record evidence describing the period and frequency of use (a usage schedule or operating procedure).',
      parts: ['evidence'],
      mode: 'any',
      keywords: ['period of use', 'frequency', 'usage schedule', 'daily', 'weekly', 'monthly', 'continuous', 'operating hours', 'schedule'],
    },
    {
      id: 'c-affected-persons',
      ref: 'EU AI Act Art. 27(1)(c)',
      title: 'Categories of natural persons and groups likely to be affected by its use in the specific context',
      hint: 'Record evidence naming the categories of affected persons, or the profile traits that reach people.',
      parts: ['profile.people', 'evidence'],
      mode: 'any',
      keywords: [
        'affected persons',
        'data subjects',
        'applicants',
        'employees',
        'customers',
        'patients',
        'students',
        'vulnerable',
        'categories of persons',
      ],
    },
    {
      id: 'd-risks-of-harm',
      ref: 'EU AI Act Art. 27(1)(d)',
      title: 'Specific risks of harm likely to have an impact on the categories of persons identified',
      hint: 'Link the system’s risks of the risk register to its profile, or record a risk assessment.',
      parts: ['risks', 'assessments'],
      mode: 'any',
      assessmentTypes: ['risk-classification', 'dpia', 'fria'],
    },
    {
      id: 'e-human-oversight',
      ref: 'EU AI Act Art. 27(1)(e)',
      title: 'Implementation of human oversight measures according to the instructions for use',
      hint: 'Assign accountable and responsible people to the system and record oversight evidence (AIA-HOV controls).',
      parts: ['oversight.people', 'evidence'],
      mode: 'all',
      keywords: ['human oversight', 'oversight', 'human review', 'override', 'four eyes', 'manual review'],
      controlIds: ['AIA-HOV-01', 'AIA-HOV-02', 'AIA-HOV-03', 'AIA-HOV-04'],
      oversightRaci: ['accountable', 'responsible'],
    },
    {
      id: 'f-measures',
      ref: 'EU AI Act Art. 27(1)(f)',
      title: 'Measures to be taken where those risks materialise, including internal governance and complaint mechanisms',
      hint: 'Record treatments of the system’s risks and evidence of complaint or incident procedures.',
      parts: ['treatments', 'evidence'],
      mode: 'any',
      keywords: ['complaint', 'redress', 'incident response', 'escalation', 'remediation', 'grievance', 'appeal'],
      controlIds: ['AIA-INC-01', 'AIA-PMM-02', 'AIA-DEP-02'],
      treatmentTypes: ['mitigate', 'avoid', 'transfer'],
    },
  ],
  /** Profile traits that name who is affected, and the category each implies. */
  peopleTraits: {
    interactsWithPeople: 'People interacting with the system directly.',
    emotionRecognition: 'People whose emotions the system infers.',
    biometricCategorisation: 'People categorised from their biometric data.',
    deepFake: 'People depicted in generated or manipulated content.',
  } as Record<string, string>,
};

type Rule = (typeof rules.sections)[number] & {
  keywords?: string[];
  controlIds?: string[];
  assessmentTypes?: string[];
  oversightRaci?: string[];
  treatmentTypes?: string[];
};

/** The lines and sources of one named part of a section. */
function part(name: string, rule: Rule, f: SystemFacts, r: typeof rules) {
  const p = f.profile;
  const none = { lines: [] as string[], sources: [] as { type: string; id: string }[] };
  const fromProfile = (lines: string[]) => (p && lines.length ? { lines, sources: [{ type: 'profile', id: f.systemId }] } : none);
  switch (name) {
    case 'profile.purpose':
      return fromProfile(p ? [`${p.name}: ${p.purpose}`] : []);
    case 'profile.context':
      return fromProfile(p?.deployerContext ? [`Used in: ${p.deployerContext}`] : []);
    case 'profile.people':
      return fromProfile(
        p
          ? Object.keys(r.peopleTraits)
              .filter((k) => (p as Record<string, unknown>)[k] === true)
              .map((k) => r.peopleTraits[k] as string)
          : [],
      );
    case 'evidence':
      return evidenceLines(f.evidence, { keywords: rule.keywords, controlIds: rule.controlIds });
    case 'risks': {
      const open = f.risks.filter((x) => x.status !== 'closed');
      return {
        lines: open.map(
          (x) =>
            `${x.title} (${x.domain}; residual likelihood ${x.residualLikelihood} × impact ${x.residualImpact} = ${x.residualLikelihood * x.residualImpact}).`,
        ),
        sources: open.map((x) => ({ type: 'risk', id: x.id })),
      };
    }
    case 'assessments': {
      const hits = f.assessments.filter((a) => rule.assessmentTypes?.includes(a.type));
      return {
        lines: hits.map((a) => `${a.type} assessment ${a.id} (${a.status}, ${Math.round(a.completion * 100)}% complete).`),
        sources: hits.map((a) => ({ type: 'assessment', id: a.id })),
      };
    }
    case 'oversight.people': {
      const hits = f.assignments.filter((a) => rule.oversightRaci?.includes(a.raci));
      return {
        lines: hits.map((a) => `${a.personName ?? a.personId} is ${a.raci}${a.control ? ` for ${a.control}` : ''}.`),
        sources: hits.map((a) => ({ type: 'assignment', id: a.id })),
      };
    }
    case 'treatments': {
      const hits = f.treatments.filter((t) => rule.treatmentTypes?.includes(t.type));
      return {
        lines: hits.map((t) => `${t.type} (${t.status}): ${t.description}`),
        sources: hits.map((t) => ({ type: 'treatment', id: t.id })),
      };
    }
    default:
      return none;
  }
}

export const fria = defineAgent({
  spec: groupAAgents.fria,
  ruleSet: { id: 'fria-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('eu-ai-act'),
  gather: (ctx, input) => systemRecords(ctx, input.systemId),
  decide(_input, facts, r: typeof rules) {
    const sections = r.sections.map((rule) => {
      const parts = (rule as Rule).parts.map((name) => part(name, rule as Rule, facts, r));
      // `all`: every part is a distinct requirement (oversight needs people and measures);
      // `any`: the parts are alternative sources of the same content.
      const s = section({ id: rule.id, ref: rule.ref, title: rule.title, hint: rule.hint }, parts);
      return rule.mode === 'any' && s.status === 'partial' ? { ...s, status: 'filled' as const } : s;
    });
    return {
      systemId: facts.systemId,
      systemName: facts.profile?.name ?? null,
      required: facts.profile ? r.requiredForRoles.includes(facts.profile.role) : true,
      sections,
      missing: sections.filter((s) => s.status !== 'filled').map((s) => s.id),
      completenessPercent: completeness(sections),
    };
  },
  fromEvent(event) {
    if (!eventMatches(event, 'fria.')) return null;
    const systemId = attr(event, 'systemId') ?? event.entity;
    return systemId ? { systemId } : null;
  },
});
