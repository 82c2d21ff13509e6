import { groupAAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { attr, cmp, eventMatches, invalid, mentionsAny, normalise, notFound, sortedUnique, tenantDb } from './shared.ts';

/**
 * policy-steward: the skeleton of a policy for a topic, each section kept when no framework or an
 * activated framework calls for it; for an existing policy the sections its newest text lacks are
 * added. The next version number and the approver route (the approval chain for policies, each
 * approver checked for being active and free of a declared conflict) come with the draft, which
 * is returned, never written.
 */

interface TemplateSection {
  heading: string;
  /** Dictionaries that call for the section; empty for a section every policy of the topic has. */
  frameworks: string[];
  controlIds: Record<string, string[]>;
  text: string;
}

export const rules = {
  /** Approval chains whose name contains one of these words route policies; the first by id is used. */
  chainKeywords: ['policy', 'policies'],
  topics: {
    'ai-governance': {
      title: 'AI governance policy',
      keywords: ['ai governance', 'artificial intelligence', 'ai policy', 'ai'],
      sections: [
        {
          heading: 'Purpose and scope',
          frameworks: [],
          controlIds: {},
          text: 'This policy sets how the organisation develops, procures and uses AI systems, and to which systems and people it applies.',
        },
        {
          heading: 'Roles and accountability',
          frameworks: ['iso-iec-42001', 'eu-ai-act'],
          controlIds: { 'eu-ai-act': ['AIA-QMS-02'], 'iso-iec-42001': ['ISO42001-A.3.2'] },
          text: 'Each AI system has one accountable owner; responsibilities for risk, oversight and compliance are assigned by name.',
        },
        {
          heading: 'AI system inventory and classification',
          frameworks: ['eu-ai-act'],
          controlIds: { 'eu-ai-act': ['AIA-CLS-01', 'AIA-CLS-02'] },
          text: 'Every AI system is recorded in the inventory with its role and its EU AI Act risk class before use.',
        },
        {
          heading: 'Prohibited practices',
          frameworks: ['eu-ai-act'],
          controlIds: { 'eu-ai-act': ['AIA-PRO-01'] },
          text: 'No AI system is placed on the market or used for a practice prohibited by Art. 5.',
        },
        {
          heading: 'Risk management',
          frameworks: ['eu-ai-act', 'iso-iec-42001', 'nist-ai-rmf'],
          controlIds: { 'eu-ai-act': ['AIA-RMS-01'], 'iso-iec-42001': ['ISO42001-C-6.1.2'] },
          text: 'Risks of each AI system are identified, evaluated and treated over its lifecycle and reviewed at fixed intervals.',
        },
        {
          heading: 'Human oversight',
          frameworks: ['eu-ai-act'],
          controlIds: { 'eu-ai-act': ['AIA-HOV-01', 'AIA-HOV-04'] },
          text: 'High-risk systems are overseen by competent people who can override or stop them.',
        },
        {
          heading: 'AI literacy',
          frameworks: ['eu-ai-act'],
          controlIds: { 'eu-ai-act': ['AIA-LIT-01'] },
          text: 'Everyone dealing with AI systems on the organisation’s behalf receives AI-literacy training fit for their role.',
        },
        {
          heading: 'Review of this policy',
          frameworks: [],
          controlIds: {},
          text: 'The policy owner reviews this policy at least yearly and after any significant change.',
        },
      ] as TemplateSection[],
    },
    'data-protection': {
      title: 'Data protection policy',
      keywords: ['data protection', 'privacy', 'personal data', 'gdpr'],
      sections: [
        {
          heading: 'Purpose and scope',
          frameworks: [],
          controlIds: {},
          text: 'This policy sets how personal data are processed lawfully, fairly and transparently.',
        },
        {
          heading: 'Principles and lawful bases',
          frameworks: ['gdpr', 'uk-gdpr', 'lgpd', 'india-dpdp'],
          controlIds: { gdpr: ['GDPR-PRN-01', 'GDPR-LAW-01'] },
          text: 'Every processing operation has a documented purpose and lawful basis, and collects only the data it needs.',
        },
        {
          heading: 'Data subject rights',
          frameworks: ['gdpr', 'uk-gdpr', 'ccpa-cpra', 'lgpd', 'india-dpdp'],
          controlIds: {},
          text: 'Requests from data subjects are verified and answered within the statutory deadline.',
        },
        {
          heading: 'Impact assessments',
          frameworks: ['gdpr', 'uk-gdpr'],
          controlIds: { gdpr: ['GDPR-DPIA-01'] },
          text: 'Processing likely to result in a high risk is assessed before it starts.',
        },
        {
          heading: 'Breach notification',
          frameworks: ['gdpr', 'uk-gdpr', 'lgpd'],
          controlIds: {},
          text: 'Personal-data breaches are recorded and notified to the authority within 72 hours where required.',
        },
        {
          heading: 'Review of this policy',
          frameworks: [],
          controlIds: {},
          text: 'The data protection officer reviews this policy at least yearly.',
        },
      ] as TemplateSection[],
    },
    'information-security': {
      title: 'Information security policy',
      keywords: ['information security', 'security', 'isms', 'cyber'],
      sections: [
        {
          heading: 'Purpose and scope',
          frameworks: [],
          controlIds: {},
          text: 'This policy sets how the confidentiality, integrity and availability of information are protected.',
        },
        {
          heading: 'Leadership and roles',
          frameworks: ['iso-iec-27001', 'nis2', 'dora'],
          controlIds: { 'iso-iec-27001': ['ISO27001-5.1', 'ISO27001-5.3'] },
          text: 'Management approves this policy and assigns information-security responsibilities.',
        },
        {
          heading: 'Risk assessment and treatment',
          frameworks: ['iso-iec-27001', 'nis2', 'dora'],
          controlIds: { 'iso-iec-27001': ['ISO27001-6.1.2'] },
          text: 'Information-security risks are assessed at planned intervals and treated by selected controls.',
        },
        {
          heading: 'Access control',
          frameworks: ['iso-iec-27001', 'soc2-tsc', 'pci-dss-4'],
          controlIds: {},
          text: 'Access is granted on least privilege and reviewed periodically.',
        },
        {
          heading: 'Supply chain security',
          frameworks: ['nis2', 'dora'],
          controlIds: {},
          text: 'Suppliers are assessed and contractually bound to security requirements.',
        },
        {
          heading: 'Review of this policy',
          frameworks: [],
          controlIds: {},
          text: 'The information-security officer reviews this policy at least yearly.',
        },
      ] as TemplateSection[],
    },
    'incident-response': {
      title: 'Incident response policy',
      keywords: ['incident', 'breach', 'response'],
      sections: [
        {
          heading: 'Purpose and scope',
          frameworks: [],
          controlIds: {},
          text: 'This policy sets how incidents are detected, handled, notified and learned from.',
        },
        {
          heading: 'Detection and classification',
          frameworks: ['nis2', 'dora', 'iso-iec-27001'],
          controlIds: {},
          text: 'Incidents are logged on detection and classified by severity against documented criteria.',
        },
        {
          heading: 'Regulatory notification',
          frameworks: ['gdpr', 'nis2', 'dora', 'eu-ai-act'],
          controlIds: { 'eu-ai-act': ['AIA-INC-02'] },
          text: 'Notifications are sent within each regime’s deadline: 72 hours (GDPR), 24 hours then 72 hours (NIS2), 15 days (AI Act serious incidents).',
        },
        {
          heading: 'Post-incident review',
          frameworks: [],
          controlIds: {},
          text: 'Every major incident is reviewed and its lessons recorded.',
        },
      ] as TemplateSection[],
    },
    'acceptable-use': {
      title: 'Acceptable use of AI tools',
      keywords: ['acceptable use', 'use of ai', 'generative'],
      sections: [
        { heading: 'Purpose and scope', frameworks: [], controlIds: {}, text: 'This policy sets which AI tools staff may use and how.' },
        { heading: 'Approved tools', frameworks: [], controlIds: {}, text: 'Only AI tools on the approved list may be used for work.' },
        {
          heading: 'Confidential and personal data',
          frameworks: ['gdpr', 'iso-iec-27001'],
          controlIds: {},
          text: 'Confidential or personal data are not entered into AI tools unless the tool is approved for them.',
        },
        {
          heading: 'Transparency of AI-generated content',
          frameworks: ['eu-ai-act'],
          controlIds: { 'eu-ai-act': ['AIA-TRA-02', 'AIA-TRA-04'] },
          text: 'AI-generated content published by the organisation is disclosed as such.',
        },
      ] as TemplateSection[],
    },
  } as Record<string, { title: string; keywords: string[]; sections: TemplateSection[] }>,
};

interface Facts {
  topic: string;
  policy: { id: string; title: string; currentVersion: number; status: string; text: string | null } | null;
  activated: string[];
  chains: { id: string; name: string; approverIds: string[] }[];
  people: { id: string; name: string; status: string }[];
  openConflicts: { personId: string; subject: string }[];
}

/** The topic asked for, or the first whose keywords the policy title mentions; 422 when none. */
function topicOf(input: { topic?: string }, title: string | null): string {
  if (input.topic) {
    if (!rules.topics[input.topic])
      throw invalid('topic', `Topic ${input.topic} has no template; use one of ${Object.keys(rules.topics).join(', ')}.`);
    return input.topic;
  }
  const found = Object.entries(rules.topics).find(([, t]) => mentionsAny(title ?? '', t.keywords));
  if (!found) throw invalid('topic', 'The policy title names no known topic; give a topic.');
  return found[0];
}

const headingsOf = (text: string | null) =>
  new Set(
    (text ?? '')
      .split('\n')
      .filter((l) => /^#{1,6}\s/.test(l))
      .map((l) => normalise(l.replace(/^#+\s*/, ''))),
  );

export const policySteward = defineAgent({
  spec: groupAAgents.policySteward,
  ruleSet: { id: 'policy-steward-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx, input) =>
    ctx.versionOf(input.topic === 'data-protection' ? 'gdpr' : input.topic === 'information-security' ? 'iso-iec-27001' : 'iso-iec-42001'),
  async gather(ctx, input): Promise<Facts> {
    const db = tenantDb(ctx);
    let policy: Facts['policy'] = null;
    if (input.policyId) {
      const row = await db.policy.findFirst({ where: { id: input.policyId } });
      if (!row) throw notFound(`Policy ${input.policyId} was not found.`, 'policyId');
      const version = await db.policyVersion.findFirst({ where: { policyId: row.id, number: row.currentVersion } });
      policy = { id: row.id, title: row.title, currentVersion: row.currentVersion, status: row.status, text: version?.text ?? null };
    }
    const topic = topicOf(input, policy?.title ?? null);
    const [activations, chains, people, conflicts] = await Promise.all([
      db.frameworkActivation.findMany({ orderBy: { frameworkId: 'asc' } }),
      db.approvalChain.findMany({ orderBy: { id: 'asc' } }),
      db.stakeholderUser.findMany({ orderBy: { id: 'asc' } }),
      db.governanceConflict.findMany({ where: { status: 'open' }, orderBy: { id: 'asc' } }),
    ]);
    return {
      topic,
      policy,
      activated: activations.map((a) => a.frameworkId),
      chains: chains.map((c) => ({ id: c.id, name: c.name, approverIds: [...c.approverIds] })),
      people: people.map((p) => ({ id: p.id, name: p.name, status: p.status })),
      openConflicts: conflicts.map((c) => ({ personId: c.personId, subject: c.subject })),
    };
  },
  decide(_input, facts, r: typeof rules) {
    const template = r.topics[facts.topic] as (typeof r.topics)[string];
    const present = headingsOf(facts.policy?.text ?? null);
    const sections = template.sections
      .filter((s) => s.frameworks.length === 0 || s.frameworks.some((f) => facts.activated.includes(f)))
      .map((s) => {
        const frameworks = s.frameworks.filter((f) => facts.activated.includes(f));
        return {
          heading: s.heading,
          status: (present.has(normalise(s.heading)) ? 'present' : 'new') as 'present' | 'new',
          frameworks,
          controlIds: sortedUnique(frameworks.flatMap((f) => s.controlIds[f] ?? [])),
          text: s.text,
        };
      });
    const title = facts.policy?.title ?? template.title;
    const added = sections.filter((s) => s.status === 'new').map((s) => `## ${s.heading}\n\n${s.text}`);
    const draft = facts.policy?.text
      ? [facts.policy.text.trimEnd(), ...added].join('\n\n')
      : [`# ${title}`, ...sections.map((s) => `## ${s.heading}\n\n${s.text}`)].join('\n\n');
    const chain = facts.chains.find((c) => mentionsAny(c.name, r.chainKeywords)) ?? null;
    const subjects = new Set([facts.policy?.id, title, facts.topic].filter((x): x is string => Boolean(x)).map(normalise));
    const approvers = (chain?.approverIds ?? []).map((personId, i) => {
      const person = facts.people.find((p) => p.id === personId);
      const issues: string[] = [];
      if (person?.status !== 'active') issues.push('The approver is not an active person.');
      if (facts.openConflicts.some((c) => c.personId === personId && subjects.has(normalise(c.subject))))
        issues.push('The approver declared an open conflict of interest about this policy.');
      return { step: i + 1, personId, name: person?.name ?? null, issues };
    });
    return {
      topic: facts.topic,
      policyId: facts.policy?.id ?? null,
      title,
      nextVersion: facts.policy ? facts.policy.currentVersion + 1 : 1,
      sections,
      draft,
      controlIds: sortedUnique(sections.flatMap((s) => s.controlIds)).sort(cmp),
      route: { chainId: chain?.id ?? null, approvers, blocked: approvers.length === 0 || approvers.some((a) => a.issues.length > 0) },
    };
  },
  fromEvent(event) {
    if (!eventMatches(event, 'policy.')) return null;
    const policyId = attr(event, 'policyId') ?? event.entity;
    return policyId?.startsWith('pol_') ? { policyId } : null;
  },
});
