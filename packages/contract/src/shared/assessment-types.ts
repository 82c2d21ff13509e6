/**
 * Assessment types and the stages each one walks through. An assessment's stages are derived from
 * its type at creation; adding a type here adds it to the API, the OpenAPI enum and the server.
 */
export const ASSESSMENT_TYPES = {
  fria: {
    title: 'Fundamental-rights impact assessment (EU AI Act Art. 27)',
    stages: [
      ['scoping', 'Scope and deployment context'],
      ['process', 'Processes in which the system is used'],
      ['affected-persons', 'Categories of affected persons'],
      ['risks', 'Specific risks of harm'],
      ['oversight', 'Human-oversight measures'],
      ['mitigation', 'Measures if risks materialise'],
      ['notification', 'Notification of the market-surveillance authority'],
    ],
  },
  dpia: {
    title: 'Data-protection impact assessment (GDPR Art. 35)',
    stages: [
      ['description', 'Systematic description of the processing'],
      ['necessity', 'Necessity and proportionality'],
      ['risks', 'Risks to the rights and freedoms of data subjects'],
      ['measures', 'Measures to address the risks'],
      ['dpo-advice', 'Advice of the data-protection officer'],
      ['sign-off', 'Sign-off'],
    ],
  },
  'risk-classification': {
    title: 'EU AI Act risk classification',
    stages: [
      ['system-description', 'System description and intended purpose'],
      ['prohibited', 'Prohibited practices (Art. 5)'],
      ['annex-i', 'Product safety components (Art. 6(1), Annex I)'],
      ['annex-iii', 'Annex III use cases and Art. 6(3) derogations'],
      ['transparency', 'Transparency duties (Art. 50)'],
      ['conclusion', 'Classification and rationale'],
    ],
  },
  conformity: {
    title: 'Conformity assessment by internal control (EU AI Act Art. 43, Annex VI)',
    stages: [
      ['qms', 'Quality-management system review'],
      ['technical-documentation', 'Technical documentation (Annex IV)'],
      ['design-verification', 'Design and development verification'],
      ['post-market', 'Post-market monitoring plan'],
      ['declaration', 'EU declaration of conformity'],
    ],
  },
  'gap-analysis': {
    title: 'Framework gap analysis',
    stages: [
      ['scoping', 'Scope and frameworks'],
      ['control-mapping', 'Control mapping'],
      ['evidence-review', 'Evidence review'],
      ['report', 'Gap report'],
    ],
  },
  'aims-internal-audit': {
    title: 'AI management-system internal audit (ISO/IEC 42001 9.2)',
    stages: [
      ['planning', 'Audit programme and plan'],
      ['fieldwork', 'Fieldwork'],
      ['findings', 'Findings and nonconformities'],
      ['report', 'Audit report'],
    ],
  },
} as const satisfies Record<string, { title: string; stages: readonly (readonly [string, string])[] }>;

export type AssessmentType = keyof typeof ASSESSMENT_TYPES;
export const ASSESSMENT_TYPE_IDS = Object.keys(ASSESSMENT_TYPES) as [AssessmentType, ...AssessmentType[]];
