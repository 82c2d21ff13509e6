import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { EXAMPLE_KEY, exampleId } from '../../shared/records.ts';
import { Code, FRAMEWORK_KINDS, JURISDICTION_LEVELS } from './fields.ts';

/** The taxonomy rail's records, request bodies and their examples (index.ts describes the rail). */

claimIdPrefix('txp', 'svc.taxonomy.pin');

const objectOf = <T extends string>(name: T) => z.literal(name).meta({ description: 'Type of the object, constant for the schema.' });

const DictionaryVersion = z
  .string()
  .meta({ description: '`<dictionary>@<version>` the item comes from (`gdpr@1.0.0`, `taxonomy/roles@1.0.0`).', examples: ['gdpr@1.0.0'] });

/** `object`, `id` and `dictionaryVersion`: how an entry of a taxonomy file begins. */
function entryHead<const T extends string>(name: T, idDescription: string) {
  return { object: objectOf(name), id: z.string().meta({ description: idDescription }), dictionaryVersion: DictionaryVersion };
}

const ClauseLink = z
  .object({
    framework: z.string().meta({ description: 'Id of the dictionary.' }),
    clauseRef: z.string().meta({ description: 'Reference of the clause in that dictionary (`art-35`).' }),
  })
  .meta({ description: 'A clause of a dictionary.' });

export const TaxonomyFramework = z
  .object({
    object: objectOf('svc.taxonomy.framework'),
    id: z.string().meta({ description: 'Id of the dictionary (`eu-ai-act`), stable across versions.' }),
    version: z.string().meta({ description: 'Version served: the latest, or the one asked for.' }),
    dictionaryVersion: DictionaryVersion,
    versions: z.array(z.string()).meta({ description: 'Every version loaded, oldest first.' }),
    title: z.string().meta({ description: 'Full title.' }),
    shortTitle: z.string().meta({ description: 'Short name for lists.' }),
    kind: z.enum(FRAMEWORK_KINDS).meta({ description: 'Kind of dictionary.' }),
    publisher: z.string().meta({ description: 'Body that published the text.' }),
    jurisdiction: z.string().meta({ description: 'Code of the jurisdiction (see `GET /v1/taxonomy/jurisdictions`).' }),
    contentHash: z.string().meta({ description: "SHA-256 of the version's canonical content: its part of the bundle hash." }),
  })
  .meta({
    id: 'TaxonomyFramework',
    examples: [
      {
        object: 'svc.taxonomy.framework',
        id: 'gdpr',
        version: '1.0.0',
        dictionaryVersion: 'gdpr@1.0.0',
        versions: ['1.0.0'],
        title: 'Regulation (EU) 2016/679 (General Data Protection Regulation)',
        shortTitle: 'GDPR',
        kind: 'regulation',
        publisher: 'European Union',
        jurisdiction: 'eu',
        contentHash: 'sha256:9b1f…',
      },
    ],
  });

export const TaxonomyControl = z
  .object({
    object: objectOf('svc.taxonomy.control'),
    id: z.string().meta({ description: 'Id of the control (`GDPR-SEC-01`).' }),
    framework: z.string().meta({ description: 'Id of the dictionary.' }),
    dictionaryVersion: DictionaryVersion,
    title: z.string().meta({ description: 'Title of the control.' }),
    description: z.string().meta({ description: 'What the control requires.' }),
    category: z.string().meta({ description: 'Group of the control.' }),
    clauseRefs: z.array(z.string()).meta({ description: 'Clauses of the dictionary the control satisfies.' }),
  })
  .meta({
    id: 'TaxonomyControl',
    examples: [
      {
        object: 'svc.taxonomy.control',
        id: 'GDPR-SEC-01',
        framework: 'gdpr',
        dictionaryVersion: 'gdpr@1.0.0',
        title: 'Security of processing',
        description: 'Technical and organisational measures appropriate to the risk protect personal data.',
        category: 'security',
        clauseRefs: ['art-32'],
      },
    ],
  });

export const TaxonomyClause = z
  .object({
    object: objectOf('svc.taxonomy.clause'),
    framework: z.string().meta({ description: 'Id of the dictionary.' }),
    dictionaryVersion: DictionaryVersion,
    ref: z.string().meta({ description: 'Reference of the clause (`art-32`).' }),
    title: z.string().meta({ description: 'Title of the clause.' }),
    summary: z.string().meta({ description: 'Plain-language summary.' }),
    parentRef: z.string().nullable().meta({ description: 'Enclosing clause; null at the top level.' }),
  })
  .meta({
    id: 'TaxonomyClause',
    examples: [
      {
        object: 'svc.taxonomy.clause',
        framework: 'gdpr',
        dictionaryVersion: 'gdpr@1.0.0',
        ref: 'art-32',
        title: 'Security of processing',
        summary: 'Controllers and processors secure personal data appropriately to the risk.',
        parentRef: null,
      },
    ],
  });

export const EvidenceType = z
  .object({
    ...entryHead('svc.taxonomy.evidence_type', 'Id of the evidence type (`dpia`).'),
    title: z.string().meta({ description: 'Name of the evidence type.' }),
    description: z.string().meta({ description: 'What the evidence is.' }),
    evidenceKind: z
      .string()
      .meta({ description: 'The `kind` an evidence record of this type is filed under in `POST /v1/compliance/evidence`.' }),
    requiredBy: z.array(ClauseLink).meta({ description: 'Clauses of the dictionaries that ask for this evidence.' }),
  })
  .meta({
    id: 'EvidenceType',
    examples: [
      {
        object: 'svc.taxonomy.evidence_type',
        id: 'dpia',
        dictionaryVersion: 'taxonomy/evidence-types@1.0.0',
        title: 'Data protection impact assessment',
        description: 'Assessment of a high-risk processing operation with the measures that address it.',
        evidenceKind: 'report',
        requiredBy: [{ framework: 'gdpr', clauseRef: 'art-35' }],
      },
    ],
  });

export const Jurisdiction = z
  .object({
    object: objectOf('svc.taxonomy.jurisdiction'),
    code: Code,
    dictionaryVersion: DictionaryVersion,
    name: z.string().meta({ description: 'Name of the jurisdiction.' }),
    kind: z.enum(JURISDICTION_LEVELS).meta({ description: 'Level of the jurisdiction.' }),
    parent: z.string().nullable().meta({ description: 'Code of the enclosing jurisdiction (`eu` for a member state); null at the top.' }),
    euMember: z.boolean().meta({ description: 'True for an EU member state and its subdivisions.' }),
    description: z.string().meta({ description: 'What applies there.' }),
  })
  .meta({
    id: 'Jurisdiction',
    examples: [
      {
        object: 'svc.taxonomy.jurisdiction',
        code: 'de',
        dictionaryVersion: 'taxonomy/jurisdictions@1.0.0',
        name: 'Germany',
        kind: 'country',
        parent: 'eu',
        euMember: true,
        description: 'Germany, an EU member state.',
      },
    ],
  });

/** Kinds of authority a regulator entry may have (the server validates `content/taxonomy/regulators.json` against the same list). */
export const REGULATOR_KINDS = [
  'ai-authority',
  'data-protection-authority',
  'data-protection-board',
  'cybersecurity-agency',
  'csirt',
  'financial-supervisor',
  'health-regulator',
  'attorney-general',
] as const;

export const Regulator = z
  .object({
    ...entryHead('svc.taxonomy.regulator', 'Id of the regulator (`cnil`).'),
    name: z.string().meta({ description: 'Official name.' }),
    shortName: z.string().meta({ description: 'Usual abbreviation.' }),
    jurisdiction: z.string().meta({ description: 'Code of its jurisdiction.' }),
    kind: z.enum(REGULATOR_KINDS).meta({ description: 'Kind of authority.' }),
    url: z.string().meta({ description: 'Official website.' }),
    dictionaries: z.array(z.string()).meta({ description: 'Ids of the dictionaries it supervises, enforces or coordinates.' }),
    description: z.string().meta({ description: 'Its remit.' }),
  })
  .meta({
    id: 'Regulator',
    examples: [
      {
        object: 'svc.taxonomy.regulator',
        id: 'cnil',
        dictionaryVersion: 'taxonomy/regulators@1.0.0',
        name: "Commission nationale de l'informatique et des libertés",
        shortName: 'CNIL',
        jurisdiction: 'fr',
        kind: 'data-protection-authority',
        url: 'https://www.cnil.fr',
        dictionaries: ['gdpr'],
        description: 'French data protection supervisory authority under the GDPR.',
      },
    ],
  });

export const RiskClass = z
  .object({
    ...entryHead('svc.taxonomy.risk_class', 'Id of the class (`high`, `gpai-systemic`).'),
    name: z.string().meta({ description: 'Name of the class.' }),
    riskLevel: z
      .enum(['prohibited', 'high', 'limited', 'minimal', 'gpai'])
      .meta({ description: 'The classifier `riskLevel` the class maps to.' }),
    systemicRisk: z.boolean().meta({ description: 'True for general-purpose AI models with systemic risk.' }),
    framework: z.string().meta({ description: 'Dictionary that defines the class (`eu-ai-act`).' }),
    articles: z
      .array(
        z.object({
          ref: z.string().meta({ description: 'Clause reference (`art-5`).' }),
          title: z
            .string()
            .nullable()
            .meta({ description: "Its title in the dictionary's latest version; null if that version lacks it." }),
        }),
      )
      .meta({ description: 'Articles and annexes that define the class and its obligations.' }),
    applicableFrom: z.iso.date().nullable().meta({ description: 'Date its obligations apply from; null when it has none of its own.' }),
    description: z.string().meta({ description: 'What falls in the class and what it entails.' }),
  })
  .meta({
    id: 'RiskClass',
    examples: [
      {
        object: 'svc.taxonomy.risk_class',
        id: 'prohibited',
        dictionaryVersion: 'taxonomy/risk-classes@1.0.0',
        name: 'Prohibited AI practice',
        riskLevel: 'prohibited',
        systemicRisk: false,
        framework: 'eu-ai-act',
        articles: [{ ref: 'art-5', title: 'Prohibited AI practices' }],
        applicableFrom: '2025-02-02',
        description: 'Practices banned outright.',
      },
    ],
  });

export const TaxonomyRole = z
  .object({
    ...entryHead('svc.taxonomy.role', 'Id of the role (`deployer`).'),
    name: z.string().meta({ description: 'Name of the role.' }),
    description: z.string().meta({ description: 'Who holds the role.' }),
    definedBy: z
      .array(
        ClauseLink.extend({
          actor: z.string().meta({ description: "The actor name the dictionary's obligations use for the role." }),
        }),
      )
      .meta({ description: 'Dictionaries that define the role, with the defining clause.' }),
  })
  .meta({
    id: 'TaxonomyRole',
    examples: [
      {
        object: 'svc.taxonomy.role',
        id: 'deployer',
        dictionaryVersion: 'taxonomy/roles@1.0.0',
        name: 'Deployer',
        description: 'Uses an AI system under its authority in a professional activity.',
        definedBy: [{ framework: 'eu-ai-act', clauseRef: 'art-3-4', actor: 'deployer' }],
      },
    ],
  });

const Versions = z
  .record(z.string(), z.string())
  .meta({ description: '`{ "<dictionary>": "<version>", "taxonomy/<name>": "<version>" }`: every component of the bundle.' });

const ComponentChange = z.object({
  component: z.string().meta({ description: 'A dictionary id or `taxonomy/<name>`.' }),
  pinned: z.string().nullable().meta({ description: 'Version in the pinned bundle; null when the component is new.' }),
  current: z.string().nullable().meta({ description: 'Version in the current content; null when it is gone.' }),
});
const Changes = z
  .array(ComponentChange)
  .meta({ description: 'Components whose version or content differ between the pinned and the current bundle.' });

const Hash = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/)
  .meta({ description: '`sha256:<hex>` of the canonical bundle.' });

const PinId = prefixedId('txp', exampleId('txp'));

/** The example bundle: GDPR 1.0.0 and the roles file, pinned and current. */
const EXAMPLE_HASH = `sha256:${'a'.repeat(64)}`;
const EXAMPLE_VERSIONS = { gdpr: '1.0.0', 'taxonomy/roles': '1.0.0' };

export const BundleHash = z
  .object({
    object: objectOf('svc.taxonomy.bundle_hash'),
    id: PinId.meta({ description: 'Id of the pin.' }),
    hash: Hash,
    versions: Versions,
    seq: z.int().min(1).meta({ description: "Position of the pin in the tenant's pin history (1 for the first)." }),
    pinnedAt: Timestamp.meta({ description: 'When the bundle was pinned (ISO 8601 UTC).' }),
    pinnedBy: z.string().meta({ description: 'Who pinned it (API key id).' }),
    current: z.object({ hash: Hash, versions: Versions }).meta({ description: 'The bundle the service holds now.' }),
    upToDate: z.boolean().meta({ description: 'True when the pinned bundle is the current one.' }),
    changes: Changes,
  })
  .meta({
    id: 'BundleHash',
    examples: [
      {
        object: 'svc.taxonomy.bundle_hash',
        id: exampleId('txp'),
        hash: EXAMPLE_HASH,
        versions: EXAMPLE_VERSIONS,
        seq: 1,
        pinnedAt: '2026-11-23T09:00:00.000Z',
        pinnedBy: EXAMPLE_KEY,
        current: { hash: EXAMPLE_HASH, versions: EXAMPLE_VERSIONS },
        upToDate: true,
        changes: [],
      },
    ],
  });

export const RepinBody = z
  .strictObject({
    reason: z.string().min(1).max(1000).optional().meta({ description: 'Why the pin moves; kept in the audit event.' }),
    expectedHash: Hash.optional().meta({
      description: 'The current bundle hash the caller reviewed; when the current bundle differs, 409 and nothing moves.',
    }),
  })
  .meta({ id: 'TaxonomyRepinRequest', examples: [{ reason: 'Adopt GDPR dictionary 1.1.0 after review.' }] });

export const BundleRepin = z
  .object({
    object: objectOf('svc.taxonomy.bundle_repin'),
    id: PinId.meta({ description: 'Id of the pin in force after the call.' }),
    previousHash: Hash.nullable().meta({ description: 'Hash pinned before the call; null when the tenant had no pin.' }),
    hash: Hash.meta({ description: 'Hash pinned after the call.' }),
    versions: Versions,
    changed: z.boolean().meta({ description: 'False when the pin already named the current bundle (nothing was written).' }),
    seq: z.int().min(1).meta({ description: 'Position of the pin in force in the pin history.' }),
    pinnedAt: Timestamp.meta({ description: 'When the pin in force was made.' }),
    changes: Changes,
  })
  .meta({
    id: 'BundleRepin',
    examples: [
      {
        object: 'svc.taxonomy.bundle_repin',
        id: 'txp_01JD3Z8W2M6Q4X9V7K5T1B0N3S',
        previousHash: EXAMPLE_HASH,
        hash: `sha256:${'b'.repeat(64)}`,
        versions: { gdpr: '1.1.0', 'taxonomy/roles': '1.0.0' },
        changed: true,
        seq: 2,
        pinnedAt: '2026-11-23T10:00:00.000Z',
        changes: [{ component: 'gdpr', pinned: '1.0.0', current: '1.1.0' }],
      },
    ],
  });
