/**
 * The assessment types. Adding one here adds it to the API and the OpenAPI enum; its stages and
 * questions are the server's recipe of the type (content/assessments/recipes.json, which the
 * content check requires for every type but `gap-analysis`, whose questions are a framework's controls).
 */
export const ASSESSMENT_TYPES = {
  fria: {
    title: 'Fundamental-rights impact assessment (EU AI Act Art. 27)',
  },
  dpia: {
    title: 'Data-protection impact assessment (GDPR Art. 35)',
  },
  'risk-classification': {
    title: 'EU AI Act risk classification',
  },
  conformity: {
    title: 'Conformity assessment (EU AI Act Art. 43: internal control, Annex VI, or a notified body, Annex VII)',
  },
  'gap-analysis': {
    title: 'Framework gap analysis',
  },
  'aims-internal-audit': {
    title: 'AI management-system internal audit (ISO/IEC 42001 9.2)',
  },
} as const satisfies Record<string, { title: string }>;

export type AssessmentType = keyof typeof ASSESSMENT_TYPES;
export const ASSESSMENT_TYPE_IDS = Object.keys(ASSESSMENT_TYPES) as [AssessmentType, ...AssessmentType[]];
