import { groupAAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { completeness, evidenceLines, type SystemFacts, section, systemRecords } from './shared.ts';

/**
 * conformity-guide: the conformity-assessment dossier of a high-risk system. Each Annex IV
 * section is backed by the records the rules name (profile, evidence citing its controls or
 * matching its keywords, linked risks, assessments); the route follows Art. 43(1): a system of
 * Annex III point 1 (biometrics) goes to a notified body (Annex VII) unless harmonised standards
 * were applied in full, every other Annex III system to internal control (Annex VI).
 */

interface SectionRule {
  id: string;
  ref: string;
  title: string;
  hint: string;
  profile?: boolean;
  risks?: boolean;
  assessmentTypes?: string[];
  controlIds?: string[];
  keywords?: string[];
  kinds?: string[];
}

export const rules = {
  sections: [
    {
      id: 'annex-iv-1',
      ref: 'EU AI Act Annex IV point 1',
      title: 'General description of the AI system',
      hint: 'Record the system profile (purpose, provider, model).',
      profile: true,
      controlIds: ['AIA-CLS-01'],
    },
    {
      id: 'annex-iv-2',
      ref: 'EU AI Act Annex IV point 2',
      title: 'Detailed description of the elements of the system and of its development process',
      hint: 'Record design, architecture and training-data documentation (AIA-DOC-01, AIA-DAT controls).',
      controlIds: ['AIA-DOC-01', 'AIA-DAT-01', 'AIA-DAT-03'],
      keywords: ['architecture', 'design specification', 'training data', 'data sheet', 'model card'],
    },
    {
      id: 'annex-iv-3',
      ref: 'EU AI Act Annex IV point 3',
      title: 'Monitoring, functioning and control of the system, including human oversight',
      hint: 'Record the instructions for use and human-oversight measures (AIA-TRN-01, AIA-HOV controls).',
      controlIds: ['AIA-TRN-01', 'AIA-HOV-01', 'AIA-HOV-02', 'AIA-LOG-01'],
      keywords: ['instructions for use', 'human oversight', 'logging'],
    },
    {
      id: 'annex-iv-4',
      ref: 'EU AI Act Annex IV point 4',
      title: 'Appropriateness of the performance metrics',
      hint: 'Record accuracy targets and test results (AIA-ACR-01, AIA-RMS-04).',
      controlIds: ['AIA-ACR-01', 'AIA-RMS-04'],
      keywords: ['accuracy', 'performance metrics', 'validation results'],
      kinds: ['test-result'],
    },
    {
      id: 'annex-iv-5',
      ref: 'EU AI Act Annex IV point 5',
      title: 'Risk management system (Art. 9)',
      hint: 'Link the system’s risks to its profile and record the risk management procedure (AIA-RMS-01).',
      risks: true,
      controlIds: ['AIA-RMS-01', 'AIA-RMS-02', 'AIA-RMS-03'],
      assessmentTypes: ['risk-classification'],
    },
    {
      id: 'annex-iv-6',
      ref: 'EU AI Act Annex IV point 6',
      title: 'Relevant changes made to the system through its lifecycle',
      hint: 'Record the change log of the system (AIA-CON-02, AIA-CLS-04).',
      controlIds: ['AIA-CON-02', 'AIA-CLS-04'],
      keywords: ['change log', 'changelog', 'release notes', 'version history'],
    },
    {
      id: 'annex-iv-7',
      ref: 'EU AI Act Annex IV point 7',
      title: 'Harmonised standards or common specifications applied',
      hint: 'Record which harmonised standards or common specifications were applied (AIA-CON-04).',
      controlIds: ['AIA-CON-04'],
      keywords: ['harmonised standard', 'harmonized standard', 'common specification'],
    },
    {
      id: 'annex-iv-8',
      ref: 'EU AI Act Annex IV point 8',
      title: 'Copy of the EU declaration of conformity',
      hint: 'Record the EU declaration of conformity (AIA-CON-03).',
      controlIds: ['AIA-CON-03'],
      keywords: ['declaration of conformity'],
    },
    {
      id: 'annex-iv-9',
      ref: 'EU AI Act Annex IV point 9',
      title: 'Post-market monitoring plan (Art. 72)',
      hint: 'Record the post-market monitoring plan (AIA-PMM-01).',
      controlIds: ['AIA-PMM-01'],
      keywords: ['post market monitoring', 'post-market monitoring'],
    },
  ] as SectionRule[],
  route: {
    /** Profile traits that put a system in Annex III point 1 (biometrics). */
    biometricTraits: ['biometricCategorisation', 'emotionRecognition'],
    /** The section whose backing shows harmonised standards applied. */
    standardsSection: 'annex-iv-7',
    internal: { annex: 'VI', procedure: 'Internal control (Annex VI)' },
    notifiedBody: {
      annex: 'VII',
      procedure: 'Assessment of the quality management system and technical documentation with a notified body (Annex VII)',
    },
  },
};

function backing(rule: SectionRule, f: SystemFacts) {
  const parts: { lines: string[]; sources: { type: string; id: string }[] }[] = [];
  const p = f.profile;
  if (rule.profile && p)
    parts.push({
      lines: [`${p.name}: ${p.purpose}`, `Provider: ${p.provider}; role: ${p.role}${p.model ? `; model: ${p.model}` : ''}.`],
      sources: [{ type: 'profile', id: f.systemId }],
    });
  if (rule.risks) {
    const open = f.risks.filter((r) => r.status !== 'closed');
    parts.push({ lines: open.map((r) => `Risk ${r.title} (${r.status}).`), sources: open.map((r) => ({ type: 'risk', id: r.id })) });
  }
  if (rule.assessmentTypes) {
    const hits = f.assessments.filter((a) => rule.assessmentTypes?.includes(a.type));
    parts.push({
      lines: hits.map((a) => `${a.type} assessment ${a.id} (${a.status}).`),
      sources: hits.map((a) => ({ type: 'assessment', id: a.id })),
    });
  }
  parts.push(evidenceLines(f.evidence, { controlIds: rule.controlIds, keywords: rule.keywords, kinds: rule.kinds }));
  // Any of the named records backs the section: they are alternative proofs of the same content.
  const s = section({ id: rule.id, ref: rule.ref, title: rule.title, hint: rule.hint }, parts);
  return s.status === 'partial' ? { ...s, status: 'filled' as const } : s;
}

export const conformityGuide = defineAgent({
  spec: groupAAgents.conformityGuide,
  ruleSet: { id: 'conformity-guide-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('eu-ai-act'),
  gather: (ctx, input) => systemRecords(ctx, input.systemId),
  decide(_input, facts, r: typeof rules) {
    const sections = r.sections.map((rule) => backing(rule, facts));
    const traits = r.route.biometricTraits.filter((t) => (facts.profile as Record<string, unknown> | null)?.[t] === true);
    const standardsApplied = sections.find((s) => s.id === r.route.standardsSection)?.status === 'filled';
    const reasons: string[] = [];
    let route = r.route.internal;
    if (traits.length > 0) {
      reasons.push(`The system is in Annex III point 1 (biometrics): ${traits.join(', ')}.`);
      if (standardsApplied)
        reasons.push('Harmonised standards are recorded as applied: Art. 43(1) lets the provider choose internal control.');
      else {
        reasons.push('No harmonised standards or common specifications are recorded as applied: Art. 43(1) requires a notified body.');
        route = r.route.notifiedBody;
      }
    } else reasons.push('The system is not in Annex III point 1: Art. 43(2) makes internal control the route.');
    return {
      systemId: facts.systemId,
      route: { annex: route.annex as 'VI' | 'VII', procedure: route.procedure, reasons },
      sections,
      missing: sections.filter((s) => s.status !== 'filled').map((s) => s.id),
      readinessPercent: completeness(sections),
    };
  },
});
