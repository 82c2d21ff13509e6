import { createHash, randomBytes } from 'node:crypto';
import {
  type Art50Duty,
  type art50Documents,
  type art53GpaiDocuments,
  type DisclosureSection,
  type DisclosureSource,
  type modelCards,
  SystemProfile,
  type systemProfiles,
  type transparencyNotices,
} from '@svc/contract';
import type { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { invalid } from '../../errors.ts';
import type {
  DisclosureDocument as DocumentRow,
  TransparencyNotice as NoticeRow,
  PublicDisclosureProfile as ProfileRow,
} from '../../generated/prisma/client.ts';
import type { Store } from '../../kit.ts';
import { lockKey } from '../../platform/records.ts';
import { iso, rendererOf } from '../../platform/render.ts';
import type { SettingStore } from '../../setting-kit.ts';

/**
 * Documents generated from the tenant's AI-system records. Each generation reads the records of one
 * systemId (its declared profile, the compliance assessments and evidence naming the system, the
 * register risks, GPAI summaries and red-team targets the profile links), builds the sections, and
 * stores a new immutable version whose SHA-256 covers the canonical content and the sources (with
 * each source's last change): the same records give the same hash, a changed record a new one.
 */

type Section = z.infer<typeof DisclosureSection>;
type Source = z.infer<typeof DisclosureSource>;
type Duty = z.infer<typeof Art50Duty>;
type Profile = z.infer<typeof SystemProfile>;
type DocKind = 'art-50' | 'art-53-gpai' | 'model-card';

/** Internal, time-sortable row id of a profile (never exposed: a profile is addressed by its systemId). */
const rowId = () => `${Date.now().toString(36).padStart(10, '0')}${randomBytes(8).toString('hex')}`;

// ---------------------------------------------------------------- profiles

export const renderProfile = rendererOf<ProfileRow>()(SystemProfile, {
  syntheticModalities: (r) => r.syntheticModalities as Profile['syntheticModalities'],
});

type Delegate = { findMany(args: unknown): Promise<Record<string, unknown>[]> };
/** A model of another rail, when this build has it (GPAI summaries, red-team runs). */
const delegate = (db: Tx, name: string): Delegate | undefined => (db as unknown as Record<string, Delegate | undefined>)[name];

async function checkIds(db: Tx, field: string, model: string, ids: readonly string[] | undefined): Promise<void> {
  if (!ids || ids.length === 0) return;
  const d = delegate(db, model);
  const found = d ? ((await d.findMany({ where: { id: { in: [...ids] } }, select: { id: true } })) as { id: string }[]) : [];
  const have = new Set(found.map((r) => r.id));
  const i = ids.findIndex((id) => !have.has(id));
  if (i >= 0) throw invalid(`${field}[${i}]`, `${ids[i]} is not a record of this tenant.`);
}

const uniq = (xs: readonly string[] | undefined) => [...new Set(xs ?? [])];

/**
 * A system's profile (setting kit), addressed by its `systemId`: the ids it cites must be records
 * of the tenant (422 naming the first that is not); declarations of one system queue on the kit's lock.
 */
export const profileStore: SettingStore<typeof systemProfiles> = {
  model: 'publicDisclosureProfile',
  render: renderProfile,
  newId: rowId,
  resourceId: (_row, systemId) => systemId,
  prepare: async ({ db, body }) => {
    await checkIds(db, 'riskIds', 'riskRegisterRisk', body.riskIds);
    await checkIds(db, 'gpaiSummaryIds', 'gpaiSummary', body.gpaiSummaryIds);
    await checkIds(db, 'redTeamTargetIds', 'redTeamTarget', body.redTeamTargetIds);
    return {
      name: body.name,
      purpose: body.purpose,
      provider: body.provider,
      role: body.role,
      deployerContext: body.deployerContext ?? null,
      model: body.model ?? null,
      interactsWithPeople: body.interactsWithPeople,
      generatesSyntheticContent: body.generatesSyntheticContent,
      syntheticModalities: uniq(body.syntheticModalities),
      emotionRecognition: body.emotionRecognition ?? false,
      biometricCategorisation: body.biometricCategorisation ?? false,
      deepFake: body.deepFake ?? false,
      publicInterestText: body.publicInterestText ?? false,
      editorialResponsibility: body.editorialResponsibility ?? false,
      generalPurposeModel: body.generalPurposeModel ?? false,
      riskIds: uniq(body.riskIds),
      gpaiSummaryIds: uniq(body.gpaiSummaryIds),
      redTeamTargetIds: uniq(body.redTeamTargetIds),
    };
  },
  auditData: ({ before, key }) => ({ systemId: key, replaced: before !== null }),
};

// ---------------------------------------------------------------- inputs

interface Inputs {
  systemId: string;
  profile: ProfileRow | null;
  assessments: {
    id: string;
    type: string;
    jurisdiction: string;
    title: string | null;
    status: string;
    completion: number;
    updatedAt: Date;
  }[];
  evidence: { id: string; title: string; kind: string; controlIds: string[]; createdAt: Date }[];
  risks: {
    id: string;
    title: string;
    domain: string;
    status: string;
    residualLikelihood: number;
    residualImpact: number;
    updatedAt: Date;
  }[];
  gpai: Record<string, unknown>[];
  copyright: Record<string, unknown>[];
  energy: Record<string, unknown>[];
  dataSources: Record<string, unknown>[];
  runs: Record<string, unknown>[];
  sources: Source[];
}

async function optional(db: Tx, model: string, args: unknown): Promise<Record<string, unknown>[]> {
  const d = delegate(db, model);
  if (!d) return [];
  return d.findMany(args);
}

/** Every record of the tenant the documents of `systemId` are built from, in a stable order. */
export async function gather(client: Tx, tenantId: string, systemId: string): Promise<Inputs> {
  const db = scopeToTenant(client, tenantId);
  const profile = await db.publicDisclosureProfile.findFirst({ where: { systemId } });
  const [assessments, evidence, risks] = await Promise.all([
    db.assessment.findMany({ where: { systemId }, orderBy: { id: 'asc' } }),
    db.evidence.findMany({ where: { systemId }, orderBy: { id: 'asc' } }),
    profile?.riskIds.length ? db.riskRegisterRisk.findMany({ where: { id: { in: profile.riskIds } }, orderBy: { id: 'asc' } }) : [],
  ]);
  const summaryIds = profile?.gpaiSummaryIds ?? [];
  const targetIds = profile?.redTeamTargetIds ?? [];
  const bySummary = { where: { summaryId: { in: summaryIds } }, orderBy: { id: 'asc' } };
  const [gpai, copyright, energy, dataSources, runs] = summaryIds.length
    ? await Promise.all([
        optional(db, 'gpaiSummary', { where: { id: { in: summaryIds } }, orderBy: { id: 'asc' } }),
        optional(db, 'gpaiCopyrightPolicy', bySummary),
        optional(db, 'gpaiEnergyDisclosure', bySummary),
        optional(db, 'gpaiDataSource', bySummary),
        Promise.resolve([] as Record<string, unknown>[]),
      ])
    : [[], [], [], [], []];
  const completedRuns = targetIds.length
    ? await optional(db, 'redTeamRun', { where: { targetId: { in: targetIds }, status: 'completed' }, orderBy: { id: 'desc' }, take: 20 })
    : runs;
  const sources: Source[] = [];
  if (profile) sources.push({ type: 'system_profile', id: systemId, label: profile.name, stamp: iso(profile.updatedAt) });
  for (const a of assessments)
    sources.push({ type: 'assessment', id: a.id, label: `${a.type} (${a.jurisdiction})`, stamp: iso(a.updatedAt) });
  for (const e of evidence) sources.push({ type: 'evidence', id: e.id, label: e.title, stamp: iso(e.createdAt) });
  for (const r of risks) sources.push({ type: 'risk', id: r.id, label: r.title, stamp: iso(r.updatedAt) });
  for (const g of gpai) {
    sources.push({
      type: 'gpai_summary',
      id: String(g.id),
      label: `${String(g.modelName)} ${String(g.modelVersion)}`,
      stamp: iso((g.updatedAt ?? g.createdAt) as Date),
    });
  }
  for (const r of completedRuns) {
    sources.push({
      type: 'red_team_run',
      id: String(r.id),
      label: `Red-team run of ${String(r.targetId)}`,
      stamp: iso((r.updatedAt ?? r.createdAt) as Date),
    });
  }
  return {
    systemId,
    profile,
    assessments: assessments as Inputs['assessments'],
    evidence: evidence as Inputs['evidence'],
    risks: risks as Inputs['risks'],
    gpai,
    copyright,
    energy,
    dataSources,
    runs: completedRuns,
    sources,
  };
}

// ---------------------------------------------------------------- Art. 50 duties

const isProvider = (p: ProfileRow) => p.role === 'provider' || p.role === 'provider_and_deployer';
const isDeployer = (p: ProfileRow) => p.role === 'deployer' || p.role === 'provider_and_deployer';

/** Which duties of EU AI Act Art. 50 apply to the system, from its profile, and the text each requires. */
export function art50Duties(p: ProfileRow | null): Duty[] {
  const duty = (
    paragraph: Duty['paragraph'],
    addressee: Duty['addressee'],
    applies: boolean | null,
    reason: string,
    text: string,
  ): Duty => ({
    paragraph,
    addressee,
    applies,
    reason,
    requiredText: applies ? text : null,
    source: `EU AI Act Art. ${paragraph.replace(' text', '')}`,
  });
  if (!p) {
    const none = 'No system profile is declared for this systemId: applicability cannot be decided.';
    return [
      duty('50(1)', 'provider', null, none, ''),
      duty('50(2)', 'provider', null, none, ''),
      duty('50(3)', 'deployer', null, none, ''),
      duty('50(4)', 'deployer', null, none, ''),
      duty('50(4) text', 'deployer', null, none, ''),
      duty('50(5)', 'provider', null, none, ''),
    ];
  }
  const prov = isProvider(p);
  const dep = isDeployer(p);
  const media = p.syntheticModalities.filter((m) => m !== 'text');
  const kinds = [p.emotionRecognition ? 'emotion recognition' : null, p.biometricCategorisation ? 'biometric categorisation' : null].filter(
    Boolean,
  ) as string[];
  const d1 = prov && p.interactsWithPeople;
  const d2 = prov && p.generatesSyntheticContent;
  const d3 = dep && kinds.length > 0;
  const d4 = dep && p.deepFake;
  const d4t = dep && p.publicInterestText && !p.editorialResponsibility;
  const out = [
    duty(
      '50(1)',
      'provider',
      d1,
      !prov
        ? 'The tenant does not provide the system.'
        : p.interactsWithPeople
          ? 'The tenant provides the system and it interacts directly with natural persons.'
          : 'The system does not interact directly with natural persons.',
      `You are interacting with an AI system (${p.name}), not a human.`,
    ),
    duty(
      '50(2)',
      'provider',
      d2,
      !prov
        ? 'The tenant does not provide the system.'
        : p.generatesSyntheticContent
          ? `The tenant provides the system and it generates synthetic ${p.syntheticModalities.join(', ') || 'content'}.`
          : 'The system generates no synthetic audio, image, video or text.',
      `Outputs of ${p.name} (${p.syntheticModalities.join(', ') || 'synthetic content'}) are marked in a machine-readable format and detectable as artificially generated or manipulated.`,
    ),
    duty(
      '50(3)',
      'deployer',
      d3,
      !dep
        ? 'The tenant does not deploy the system.'
        : kinds.length > 0
          ? `The tenant deploys a ${kinds.join(' and ')} system.`
          : 'The system is neither an emotion recognition nor a biometric categorisation system.',
      `This service uses a ${kinds.join(' and ')} system (${p.name}). Your personal data are processed in accordance with Regulation (EU) 2016/679, Regulation (EU) 2018/1725 and Directive (EU) 2016/680, as applicable.`,
    ),
    duty(
      '50(4)',
      'deployer',
      d4,
      !dep
        ? 'The tenant does not deploy the system.'
        : p.deepFake
          ? 'The tenant deploys the system to generate or manipulate content constituting a deep fake.'
          : 'The system generates no deep fake.',
      `This ${media.length > 0 ? media.join('/') : 'image, audio or video'} content has been artificially generated or manipulated.`,
    ),
    duty(
      '50(4) text',
      'deployer',
      d4t,
      !dep
        ? 'The tenant does not deploy the system.'
        : !p.publicInterestText
          ? 'The system generates no text published to inform the public on matters of public interest.'
          : p.editorialResponsibility
            ? 'The text undergoes human review or editorial control under editorial responsibility: the exception of Art. 50(4) applies.'
            : 'The system generates text published to inform the public on matters of public interest, without editorial responsibility.',
      'This text was generated or manipulated by an AI system.',
    ),
  ];
  const any = out.some((d) => d.applies);
  out.push(
    duty(
      '50(5)',
      d1 || d2 ? 'provider' : 'deployer',
      any,
      any
        ? 'A duty of Art. 50(1)-(4) applies: its information must be given in time and accessibly.'
        : 'No duty of Art. 50(1)-(4) applies.',
      'This information is given in a clear and distinguishable manner at the latest at the time of the first interaction or exposure, and conforms to the applicable accessibility requirements.',
    ),
  );
  return out;
}

// ---------------------------------------------------------------- sections

const section = (key: string, title: string, source: string | null, content: string | null, sourceIds: string[]): Section => ({
  key,
  title,
  source,
  content,
  sourceIds: content === null ? [] : sourceIds,
});

const pct = (x: number) => `${Math.round(x * 100)}%`;
/** One line per record, or null (a section without content) when there is none. */
const lineEach = <T>(rows: readonly T[], line: (row: T) => string) => (rows.length === 0 ? null : rows.map(line).join('\n'));
const assessmentsText = (i: Inputs) =>
  lineEach(
    i.assessments,
    (a) => `${a.type.toUpperCase()} (${a.jurisdiction})${a.title ? ` "${a.title}"` : ''}: ${a.status}, ${pct(a.completion)} complete.`,
  );
const risksText = (i: Inputs) =>
  lineEach(
    i.risks,
    (r) =>
      `${r.title} (${r.domain}, ${r.status}; residual likelihood ${r.residualLikelihood} x impact ${r.residualImpact} = ${r.residualLikelihood * r.residualImpact}).`,
  );
const evidenceText = (i: Inputs, kinds?: readonly string[]) => {
  const rows = kinds ? i.evidence.filter((e) => kinds.includes(e.kind)) : i.evidence;
  if (rows.length === 0) return { text: null, ids: [] as string[] };
  const controls = [...new Set(rows.flatMap((e) => e.controlIds))].sort();
  return {
    text: `${rows.map((e) => `${e.title} (${e.kind})`).join('; ')}.${controls.length ? ` Controls cited: ${controls.join(', ')}.` : ''}`,
    ids: rows.map((e) => e.id),
  };
};
const runsText = (i: Inputs) =>
  lineEach(
    i.runs,
    (r) =>
      `Red-team run ${String(r.id)}: ${String(r.passed)} of ${String(r.probes)} probes passed${r.score === null || r.score === undefined ? '' : `, robustness score ${String(r.score)}`}.`,
  );
const ids = (xs: readonly { id?: unknown }[]) => xs.map((x) => String(x.id));

function profileSection(i: Inputs): Section {
  const p = i.profile;
  return section(
    'system',
    'About this AI system',
    null,
    p
      ? `${p.name} is an AI system provided by ${p.provider}. Purpose: ${p.purpose}${p.deployerContext ? ` Used in: ${p.deployerContext}` : ''}${p.model ? ` Model: ${p.model}.` : ''}`
      : null,
    [i.systemId],
  );
}

export function transparencySections(i: Inputs): Section[] {
  const duties = art50Duties(i.profile).filter((d) => d.applies);
  const ev = evidenceText(i);
  return [
    profileSection(i),
    section(
      'ai-disclosure',
      'How you are informed',
      'EU AI Act Art. 50',
      i.profile
        ? duties.length
          ? duties.map((d) => d.requiredText).join('\n')
          : 'No transparency duty of EU AI Act Art. 50 applies to this system.'
        : null,
      [i.systemId],
    ),
    section('assessments', 'Assessments', null, assessmentsText(i), ids(i.assessments)),
    section('risk-management', 'Risks and how they are managed', null, risksText(i), ids(i.risks)),
    section('evidence', 'Documentation', null, ev.text, ev.ids),
  ];
}

export function art50Sections(i: Inputs, duties: Duty[]): Section[] {
  return duties
    .filter((d) => d.applies)
    .map((d) =>
      section(`art-${d.paragraph.replace(' ', '-')}`, `Art. ${d.paragraph}: ${d.reason}`, d.source, d.requiredText, [i.systemId]),
    );
}

export function art53Sections(i: Inputs): Section[] {
  const p = i.profile;
  const g = i.gpai;
  const gIds = ids(g);
  const policies = evidenceText(i, ['policy']);
  const technical = evidenceText(i, ['document', 'configuration']);
  const copyrightEvidence = i.evidence.filter((e) => /copyright/i.test(e.title));
  const modalities = [...new Set([...g.flatMap((s) => (s.modalities as string[] | undefined) ?? []), ...(p?.syntheticModalities ?? [])])];
  const energy = i.energy;
  const A = 'EU AI Act Art. 53(1)(a), Annex XI';
  return [
    section(
      '53(1)(a).annex-xi-1(a)',
      'Tasks the model is intended to perform and the AI systems it can be integrated in',
      `${A} Section 1(1)(a)`,
      p ? `${p.purpose}${p.deployerContext ? ` Integrated in: ${p.deployerContext}` : ''}` : null,
      [i.systemId],
    ),
    section('53(1)(a).annex-xi-1(b)', 'Acceptable use policies', `${A} Section 1(1)(b)`, policies.text, policies.ids),
    section(
      '53(1)(a).annex-xi-1(c)',
      'Date of release and methods of distribution',
      `${A} Section 1(1)(c)`,
      g.some((s) => s.placedOnMarketAt)
        ? g
            .filter((s) => s.placedOnMarketAt)
            .map((s) => `${String(s.modelName)}: placed on the market ${String(s.placedOnMarketAt)}.`)
            .join('\n')
        : null,
      gIds,
    ),
    section(
      '53(1)(a).annex-xi-1(d)',
      'Architecture and number of parameters',
      `${A} Section 1(1)(d)`,
      g.length ? g.map((s) => `${String(s.modelName)} ${String(s.modelVersion)}`).join('; ') : (p?.model ?? null),
      g.length ? gIds : [i.systemId],
    ),
    section(
      '53(1)(a).annex-xi-1(e)',
      'Modality and format of inputs and outputs',
      `${A} Section 1(1)(e)`,
      modalities.length ? modalities.join(', ') : null,
      [...gIds, i.systemId],
    ),
    section('53(1)(a).annex-xi-1(f)', 'Licence', `${A} Section 1(1)(f)`, null, []),
    section('53(1)(a).annex-xi-2(a)', 'Technical means for integration', `${A} Section 1(2)(a)`, technical.text, technical.ids),
    section(
      '53(1)(a).annex-xi-2(c)',
      'Data used for training, testing and validation',
      `${A} Section 1(2)(c)`,
      i.dataSources.length ? i.dataSources.map((d) => `${String(d.name)} (${String(d.type)}): ${String(d.description)}`).join('\n') : null,
      i.dataSources.map((d) => String(d.id)),
    ),
    section(
      '53(1)(a).annex-xi-2(d)',
      'Computational resources used to train the model',
      `${A} Section 1(2)(d)`,
      energy.length
        ? energy
            .map((e) => `${String(e.computeFlops)} FLOP${e.trainingTimeHours ? `, ${String(e.trainingTimeHours)} hours of training` : ''}.`)
            .join('\n')
        : null,
      energy.map((e) => String(e.id)),
    ),
    section(
      '53(1)(a).annex-xi-2(e)',
      'Known or estimated energy consumption',
      `${A} Section 1(2)(e)`,
      energy.some((e) => e.energyMwh !== null && e.energyMwh !== undefined)
        ? energy
            .filter((e) => e.energyMwh !== null && e.energyMwh !== undefined)
            .map((e) => `${String(e.energyMwh)} MWh (${String(e.energyBasis)}).`)
            .join('\n')
        : null,
      energy.map((e) => String(e.id)),
    ),
    section(
      '53(1)(a).evaluation',
      'Evaluation results and adversarial testing',
      `${A} Section 2(1)-(2)`,
      [assessmentsText(i), runsText(i)].filter(Boolean).join('\n') || null,
      [...ids(i.assessments), ...ids(i.runs)],
    ),
    section(
      '53(1)(b).annex-xii',
      'Information for downstream providers: capabilities, limitations and risks',
      'EU AI Act Art. 53(1)(b), Annex XII',
      p ? [`${p.name}: ${p.purpose}`, risksText(i)].filter(Boolean).join('\n') : null,
      [i.systemId, ...ids(i.risks)],
    ),
    section(
      '53(1)(c).copyright-policy',
      'Policy to comply with Union copyright law (Art. 4(3) Directive (EU) 2019/790 reservations)',
      'EU AI Act Art. 53(1)(c)',
      i.copyright.length
        ? i.copyright
            .map(
              (c) =>
                `${String(c.description)} Opt-out methods honoured: ${((c.optOutMethods as string[] | undefined) ?? []).join(', ') || 'none listed'}.`,
            )
            .join('\n')
        : copyrightEvidence.length
          ? copyrightEvidence.map((e) => e.title).join('; ')
          : null,
      i.copyright.length ? ids(i.copyright) : copyrightEvidence.map((e) => e.id),
    ),
    section(
      '53(1)(d).training-content-summary',
      'Summary of the content used for training (AI Office template)',
      'EU AI Act Art. 53(1)(d)',
      g.length
        ? g
            .map(
              (s) =>
                `${String(s.modelName)} ${String(s.modelVersion)}: summary ${String(s.id)}, ${String(s.status)}, version ${String(s.version)}.`,
            )
            .join('\n')
        : null,
      gIds,
    ),
  ];
}

export function modelCardSections(i: Inputs): Section[] {
  const p = i.profile;
  const duties = art50Duties(p).filter((d) => d.applies);
  const ev = evidenceText(i);
  return [
    section(
      'model-details',
      'Model details',
      null,
      p
        ? `${p.name}; provider ${p.provider}; the tenant acts as ${p.role.replaceAll('_', ' ')}.${p.model ? ` Model: ${p.model}.` : ''}`
        : null,
      [i.systemId],
    ),
    section('intended-use', 'Intended use', null, p ? `${p.purpose}${p.deployerContext ? ` Context: ${p.deployerContext}` : ''}` : null, [
      i.systemId,
    ]),
    section('evaluation', 'Evaluation', null, [assessmentsText(i), runsText(i)].filter(Boolean).join('\n') || null, [
      ...ids(i.assessments),
      ...ids(i.runs),
    ]),
    section('risks-and-limitations', 'Risks and limitations', null, risksText(i), ids(i.risks)),
    section(
      'transparency',
      'Transparency obligations (EU AI Act Art. 50)',
      'EU AI Act Art. 50',
      p ? (duties.length ? duties.map((d) => `Art. ${d.paragraph}: ${d.requiredText}`).join('\n') : 'No Art. 50 duty applies.') : null,
      [i.systemId],
    ),
    section(
      'training-data',
      'Training data',
      null,
      i.gpai.length
        ? i.gpai
            .map((s) => `GPAI summary ${String(s.id)} of ${String(s.modelName)} ${String(s.modelVersion)} (${String(s.status)}).`)
            .join('\n')
        : null,
      ids(i.gpai),
    ),
    section('evidence', 'Supporting evidence', null, ev.text, ev.ids),
  ];
}

// ---------------------------------------------------------------- versions

/** JSON with object keys sorted at every level: the form the hash is taken of. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

interface Built {
  sections: Section[];
  duties: Duty[];
  missing: string[];
  sources: Source[];
  sha256: string;
}

function build(kind: DocKind | 'transparency', i: Inputs, extra: Record<string, unknown> = {}): Built {
  const duties = kind === 'art-50' ? art50Duties(i.profile) : [];
  const sections =
    kind === 'transparency'
      ? transparencySections(i)
      : kind === 'art-50'
        ? art50Sections(i, duties)
        : kind === 'art-53-gpai'
          ? art53Sections(i)
          : modelCardSections(i);
  const missing = [...(i.profile ? [] : ['profile']), ...sections.filter((s) => s.content === null).map((s) => s.key)];
  if (kind === 'art-53-gpai' && i.profile && !i.profile.generalPurposeModel) missing.push('profile.generalPurposeModel');
  const content = { kind, systemId: i.systemId, ...extra, sections, duties, missing, sources: i.sources };
  return { sections, duties, missing, sources: i.sources, sha256: sha256(canonicalJson(content)) };
}

// ---------------------------------------------------------------- transparency notices (kit)

/**
 * Generations of one system's documents of one kind queue on a transaction-scoped advisory lock, so
 * the latest version read after it is the one the new version follows: several generations at once
 * are numbered N+1, N+2, ... and each names its predecessor's hash, where they would otherwise read
 * the same latest version and all but one fail on the unique version.
 */
async function lockSystemVersions(tx: Tx, tenantId: string, kind: string, systemId: string): Promise<void> {
  await lockKey(tx, `svc.public_disclosure.${kind}:${tenantId}:${systemId}`);
}

/** The number and previous hash of the next version, after the latest one of its kind and system. */
const nextVersion = (last: { version: number; sha256: string } | null) => ({
  version: (last?.version ?? 0) + 1,
  previousSha256: last?.sha256 ?? null,
});

const AUDIENCE_TITLE = {
  public: 'Transparency notice',
  affected_persons: 'Information for persons exposed to',
  deployers: 'Information for deployers of',
};

export const noticeStore: Store<typeof transparencyNotices> = {
  model: 'transparencyNotice',
  computed: { changed: (r: NoticeRow) => r.previousSha256 !== r.sha256 },
  create: async ({ db, who, body }) => {
    const audience = body.audience ?? 'public';
    const inputs = await gather(db, who.tenantId, body.systemId);
    const built = build('transparency', inputs, { audience });
    const name = inputs.profile?.name ?? body.systemId;
    const text = [
      `${AUDIENCE_TITLE[audience]}${audience === 'public' ? ':' : ''} ${name} (${body.systemId})`,
      ...built.sections.filter((s) => s.content !== null).map((s) => `${s.title}\n${s.content}`),
    ].join('\n\n');
    return {
      systemId: body.systemId,
      status: 'draft',
      audience,
      text,
      sha256: built.sha256,
      sections: built.sections,
      missing: built.missing,
      sources: built.sources,
      createdBy: who.actor,
    };
  },
  // The version is numbered in the write's transaction, after the system's lock.
  prepare: async ({ tx, who, body, data }) => {
    await lockSystemVersions(tx, who.tenantId, 'transparency', body.systemId);
    const last = await scopeToTenant(tx, who.tenantId).transparencyNotice.findFirst({
      where: { systemId: body.systemId },
      orderBy: { version: 'desc' },
      select: { version: true, sha256: true },
    });
    Object.assign(data, nextVersion(last));
  },
  auditData: (n) => ({ systemId: n.systemId, version: n.version, sha256: n.sha256 }),
  transitions: {
    publish: () => ({ publishedAt: new Date() }),
  },
};

// ---------------------------------------------------------------- documents (art-50, art-53-gpai, model-card)

type DocumentResource = typeof art50Documents | typeof art53GpaiDocuments | typeof modelCards;

/**
 * The documents of one kind, generated from the system's records: the next version of its kind
 * and system, numbered in the write's transaction after the system's lock.
 */
export const documentStore = (kind: DocKind): Store<DocumentResource> => ({
  model: 'disclosureDocument',
  computed: {
    duties: (r: DocumentRow) => r.duties as Duty[],
    changed: (r: DocumentRow) => r.previousSha256 !== r.sha256,
    sections: (r: DocumentRow) => r.sections as Section[],
    sources: (r: DocumentRow) => r.sources as Source[],
  },
  create: async ({ db, who, body }) => {
    const built = build(kind, await gather(db, who.tenantId, body.systemId));
    return {
      systemId: body.systemId,
      sha256: built.sha256,
      duties: built.duties,
      sections: built.sections,
      missing: built.missing,
      sources: built.sources,
      createdBy: who.actor,
    };
  },
  prepare: async ({ tx, who, body, data }) => {
    await lockSystemVersions(tx, who.tenantId, kind, body.systemId);
    const last = await scopeToTenant(tx, who.tenantId).disclosureDocument.findFirst({
      where: { kind, systemId: body.systemId },
      orderBy: { version: 'desc' },
      select: { version: true, sha256: true },
    });
    Object.assign(data, nextVersion(last));
  },
  auditData: (d) => ({ kind: d.kind, systemId: d.systemId, version: d.version, sha256: d.sha256 }),
});
