/**
 * The rules of the context rail, as data: what marks a document type, which citations and names
 * mark a framework, and the words that carry no meaning when passages are scored against controls.
 * A rule is a regular expression (its flags say whether case matters) and the points one match is
 * worth; a rule counts at most MAX_MATCHES_PER_RULE times.
 */

export interface TextRule {
  /** Stable id shown as the evidence of a classification. */
  readonly id: string;
  readonly kind: 'keyword' | 'citation';
  readonly pattern: string;
  /** `i` for rules where case does not matter; acronyms and citations are case-sensitive. */
  readonly flags: '' | 'i';
  readonly weight: number;
}

export const MAX_MATCHES_PER_RULE = 3;

const kw = (id: string, pattern: string, weight: number, flags: '' | 'i' = 'i'): TextRule => ({
  id,
  kind: 'keyword',
  pattern,
  flags,
  weight,
});
const cite = (id: string, pattern: string, weight: number, flags: '' | 'i' = ''): TextRule => ({
  id,
  kind: 'citation',
  pattern,
  flags,
  weight,
});

/** Rules of each document type (DOCUMENT_TYPES of the contract). */
export const TYPE_RULES: Readonly<Record<string, readonly TextRule[]>> = {
  policy: [
    kw('type.policy.keyword', String.raw`\bpolicy\b`, 2),
    kw('type.policy.scope', String.raw`\b(?:purpose and scope|policy owner|policy statement)\b`, 2),
    kw('type.policy.review', String.raw`\b(?:reviewed|approved) (?:annually|by the board)\b`, 1),
  ],
  contract: [
    kw('type.contract.keyword', String.raw`\b(?:agreement|contract)\b`, 2),
    kw('type.contract.parties', String.raw`\b(?:the parties|whereas|hereinafter)\b`, 2),
    kw('type.contract.clauses', String.raw`\b(?:governing law|term and termination|liability|indemnif(?:y|ication))\b`, 1),
  ],
  data_processing_agreement: [
    kw('type.dpa.keyword', String.raw`\bdata processing (?:agreement|addendum)\b`, 4),
    cite('type.dpa.acronym', String.raw`\bDPA\b`, 3),
    kw('type.dpa.processor', String.raw`\bsub-?processors?\b`, 2),
    cite('type.dpa.article-28', String.raw`\bArt(?:icle|\.)\s*28\b`, 3),
    kw('type.dpa.scc', String.raw`\bstandard contractual clauses\b`, 2),
  ],
  procedure: [
    kw('type.procedure.keyword', String.raw`\b(?:procedure|standard operating procedure)\b`, 2),
    cite('type.procedure.sop', String.raw`\bSOP\b`, 3),
    kw('type.procedure.steps', String.raw`\bstep \d+\b`, 2),
  ],
  risk_assessment: [
    kw('type.risk_assessment.keyword', String.raw`\brisk assessment\b`, 4),
    kw('type.risk_assessment.terms', String.raw`\b(?:likelihood|risk (?:register|rating|score|matrix|owner|treatment))\b`, 2),
    kw('type.risk_assessment.mitigation', String.raw`\b(?:mitigation|residual risk)\b`, 1),
  ],
  dpia: [
    kw('type.dpia.keyword', String.raw`\bdata protection impact assessment\b`, 4),
    cite('type.dpia.acronym', String.raw`\bDPIA\b`, 4),
    cite('type.dpia.article-35', String.raw`\bArt(?:icle|\.)\s*35\b`, 3),
    kw('type.dpia.necessity', String.raw`\bnecessity and proportionality\b`, 2),
  ],
  fria: [
    kw('type.fria.keyword', String.raw`\bfundamental rights impact assessment\b`, 4),
    cite('type.fria.acronym', String.raw`\bFRIA\b`, 4),
    cite('type.fria.article-27', String.raw`\bArt(?:icle|\.)\s*27\b`, 3),
  ],
  technical_documentation: [
    kw('type.technical_documentation.keyword', String.raw`\btechnical documentation\b`, 4),
    cite('type.technical_documentation.annex-iv', String.raw`\bAnnex IV\b`, 3),
    kw('type.technical_documentation.terms', String.raw`\b(?:system architecture|model card|training data|design specifications?)\b`, 1),
  ],
  incident_report: [
    kw('type.incident_report.keyword', String.raw`\b(?:incident report|serious incident|personal data breach|security incident)\b`, 4),
    kw('type.incident_report.terms', String.raw`\b(?:root cause|containment|time of detection|affected (?:users|systems))\b`, 2),
  ],
  audit_report: [
    kw('type.audit_report.keyword', String.raw`\baudit (?:report|findings?)\b`, 4),
    kw('type.audit_report.terms', String.raw`\b(?:non-?conformit(?:y|ies)|auditor|corrective action)\b`, 2),
  ],
  privacy_notice: [
    kw('type.privacy_notice.keyword', String.raw`\bprivacy (?:notice|statement)\b`, 4),
    kw('type.privacy_notice.terms', String.raw`\b(?:your (?:personal )?data|you have the right)\b`, 2),
  ],
  training_material: [
    kw('type.training_material.keyword', String.raw`\b(?:training (?:module|course|programme|program)|learning objectives?)\b`, 4),
    kw('type.training_material.terms', String.raw`\b(?:quiz|trainees?|e-learning)\b`, 2),
  ],
};

/** Citations and names that mark each framework dictionary. */
export const FRAMEWORK_RULES: Readonly<Record<string, readonly TextRule[]>> = {
  'eu-ai-act': [
    cite('framework.eu-ai-act.citation', String.raw`Regulation \(EU\) 2024/1689`, 4),
    // Not the "AI Act" of "Colorado AI Act" (a state statute, its own framework below).
    cite('framework.eu-ai-act.name', String.raw`(?<!Colorado )\b(?:EU AI Act|AI Act|Artificial Intelligence Act)\b`, 3),
    kw('framework.eu-ai-act.terms', String.raw`\b(?:high-risk AI systems?|general-purpose AI models?|AI literacy)\b`, 1),
  ],
  gdpr: [
    cite('framework.gdpr.citation', String.raw`Regulation \(EU\) 2016/679`, 4),
    cite('framework.gdpr.name', String.raw`(?<!UK )\b(?:GDPR|General Data Protection Regulation)\b`, 3),
    kw('framework.gdpr.terms', String.raw`\b(?:data subjects?|data protection officer|lawful basis)\b`, 1),
  ],
  'uk-gdpr': [cite('framework.uk-gdpr.name', String.raw`\b(?:UK GDPR|Data Protection Act 2018)\b`, 4)],
  'iso-iec-42001': [
    cite('framework.iso-iec-42001.citation', String.raw`\bISO(?:/IEC)? 42001\b`, 4),
    cite('framework.iso-iec-42001.name', String.raw`\b(?:AI management system|AIMS)\b`, 2),
  ],
  'iso-iec-27001': [
    cite('framework.iso-iec-27001.citation', String.raw`\bISO(?:/IEC)? 27001\b`, 4),
    cite('framework.iso-iec-27001.name', String.raw`\b(?:information security management system|ISMS)\b`, 2),
  ],
  'iso-iec-27701': [cite('framework.iso-iec-27701.citation', String.raw`\bISO(?:/IEC)? 27701\b`, 4)],
  'iso-iec-23894': [cite('framework.iso-iec-23894.citation', String.raw`\bISO(?:/IEC)? 23894\b`, 4)],
  'nist-ai-rmf': [cite('framework.nist-ai-rmf.name', String.raw`\b(?:NIST AI RMF|AI Risk Management Framework|NIST AI 100-1)\b`, 4)],
  'nist-csf-2': [cite('framework.nist-csf-2.name', String.raw`\b(?:NIST CSF|Cybersecurity Framework)\b`, 4)],
  'nist-sp-800-53': [cite('framework.nist-sp-800-53.name', String.raw`\bSP 800-53\b`, 4)],
  'nist-privacy-framework': [cite('framework.nist-privacy-framework.name', String.raw`\bNIST Privacy Framework\b`, 4)],
  'nist-ssdf': [cite('framework.nist-ssdf.name', String.raw`\b(?:SP 800-218|SSDF|Secure Software Development Framework)\b`, 4)],
  nis2: [cite('framework.nis2.name', String.raw`(?:Directive \(EU\) 2022/2555|\bNIS ?2\b)`, 4)],
  dora: [cite('framework.dora.name', String.raw`(?:Regulation \(EU\) 2022/2554|\bDORA\b|\bDigital Operational Resilience Act\b)`, 4)],
  'cyber-resilience-act': [
    cite('framework.cyber-resilience-act.name', String.raw`(?:Regulation \(EU\) 2024/2847|\bCyber Resilience Act\b)`, 4),
  ],
  'ccpa-cpra': [cite('framework.ccpa-cpra.name', String.raw`(?:\bCCPA\b|\bCPRA\b|\bCalifornia Consumer Privacy Act\b|§\s?1798\.\d+)`, 4)],
  hipaa: [
    cite('framework.hipaa.name', String.raw`(?:\bHIPAA\b|45 CFR (?:Part )?16[04])`, 4),
    kw('framework.hipaa.terms', String.raw`\bprotected health information\b`, 2),
  ],
  'pci-dss-4': [
    cite('framework.pci-dss-4.name', String.raw`\bPCI[ -]DSS\b`, 4),
    kw('framework.pci-dss-4.terms', String.raw`\bcardholder data\b`, 2),
  ],
  'soc2-tsc': [cite('framework.soc2-tsc.name', String.raw`(?:\bSOC ?2\b|\bTrust Services Criteria\b)`, 4)],
  'cis-controls-8': [cite('framework.cis-controls-8.name', String.raw`\bCIS Controls?\b`, 4)],
  'csa-ccm': [cite('framework.csa-ccm.name', String.raw`(?:\bCloud Controls Matrix\b|\bCSA CCM\b)`, 4)],
  lgpd: [cite('framework.lgpd.name', String.raw`(?:\bLGPD\b|\bLei Geral de Proteção de Dados\b)`, 4)],
  'india-dpdp': [cite('framework.india-dpdp.name', String.raw`(?:\bDPDP\b|\bDigital Personal Data Protection Act\b)`, 4)],
  'colorado-ai-act': [
    cite('framework.colorado-ai-act.name', String.raw`(?:\bColorado AI Act\b|\bSB ?2[46]-(?:205|189)\b|\bColorado ADMT\b)`, 4),
  ],
};

/** Points a framework needs to be listed as concerned by a text. */
export const FRAMEWORK_MIN_POINTS = 2;

/** Words that carry no meaning when a passage is scored against a control. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been being by can for from has have if in into is it its of on or other our per such that the their them ' +
    'these they this those to under upon was were where which while who will with within without all any each every may must shall ' +
    'should not no nor only own same so than too very also including include includes ensure ensures ensured maintain maintains ' +
    'establish establishes established provide provides provided appropriate relevant where when whether based use used using ' +
    'organisation organization we us you your'
  ).split(' '),
);
