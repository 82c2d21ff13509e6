import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { commonErrorResponses } from '../../platform/errors.ts';
import { listOf, PaginationQuery, prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

const c = initContract();

/** The `object` field of a graph record, described without naming an example. */
const objectOf = <const T extends string>(name: T) => z.literal(name).meta({ description: 'Type of the object, constant for the schema.' });

const EVIDENCE_ID = exampleId('evd');
const EvidenceId = prefixedId('evd', EVIDENCE_ID);

/** The example requirement: a clause of the GDPR. */
const REQUIREMENT_EXAMPLE = { framework: 'gdpr', kind: 'clause', ref: 'art-32', title: 'Security of processing' };

const DictionaryId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
  .meta({ description: 'Id of a framework dictionary (`gdpr`).', examples: ['gdpr'] });

const Relationship = z
  .enum(['equal', 'subset', 'superset', 'intersect', 'not_related'])
  .meta({ description: 'NIST OLIR relationship of the source requirement to the target: `subset` means the source is narrower.' });

const Coverage = z.enum(['full', 'partial']).meta({
  description:
    'What satisfying one side does for the other: `full` across equal or superset edges, `partial` across subset or intersect ones.',
});

/** A requirement of a dictionary: one of its controls or clauses. */
export const Requirement = z
  .object({
    framework: z.string().meta({ description: 'Id of the dictionary (`nist-csf-2`).' }),
    kind: z.enum(['control', 'clause']).meta({ description: 'A control (`CSF-PR.AA-01`) or a clause (`art-33`) of the dictionary.' }),
    ref: z.string().meta({ description: 'Control id or clause reference.' }),
    title: z
      .string()
      .nullable()
      .meta({ description: "Title in the dictionary's latest version; null when that version no longer has it." }),
  })
  .meta({ id: 'Requirement', examples: [REQUIREMENT_EXAMPLE] });

export const Relation = z
  .object({
    object: objectOf('svc.graph.relation'),
    id: z.string().meta({ description: 'Id of the edge: `<crosswalk>#<position>`.', examples: ['gdpr--iso-iec-27701#3'] }),
    crosswalk: z.string().meta({ description: 'Id of the crosswalk file the edge comes from.' }),
    source: Requirement,
    target: Requirement,
    relationship: Relationship,
    rationale: z.enum(['syntactic', 'semantic', 'functional']).meta({ description: 'How the relationship was judged (NIST OLIR).' }),
    strength: z.int().min(0).max(10).meta({ description: 'How much of the target the source covers, 0 to 10.' }),
    note: z.string().meta({ description: 'Why the two requirements relate.' }),
    origin: z
      .enum(['official', 'authored'])
      .meta({ description: '`official` when the edge encodes a published mapping, `authored` otherwise.' }),
  })
  .meta({
    id: 'Relation',
    examples: [
      {
        object: 'svc.graph.relation',
        id: 'gdpr--iso-iec-27701#3',
        crosswalk: 'gdpr--iso-iec-27701',
        source: REQUIREMENT_EXAMPLE,
        target: { framework: 'iso-iec-27701', kind: 'control', ref: 'ISO27701-6.9.1', title: 'Access control for PII systems' },
        relationship: 'intersect',
        rationale: 'semantic',
        strength: 6,
        note: 'Both require access to personal data to be restricted to authorised people.',
        origin: 'authored',
      },
    ],
  });

const Weighted = Requirement.extend({
  weight: z
    .number()
    .min(0)
    .max(1)
    .meta({ description: 'Strongest path weight from the control: the product of each edge’s relationship factor and strength / 10.' }),
  hops: z.int().min(0).meta({ description: 'Edges on that path (0: the control itself or one of its own clauses).' }),
});

/** A requirement as one string: `<dictionary>:<control id or clause reference>` (`gdpr:art-32`, `gdpr:GDPR-SEC-01`). */
export const RequirementRef = z
  .string()
  .meta({ description: 'A requirement as `<dictionary>:<control id or clause reference>`.', examples: ['gdpr:art-32'] });

export const BlastRadius = z
  .object({
    object: objectOf('svc.graph.blast_radius'),
    control: Requirement,
    affectedFrameworks: z.array(RequirementRef).meta({
      description:
        'The requirements a change to the control reaches, as framework and clause references `<dictionary>:<ref>` (`gdpr:art-32`, `nist-csf-2:CSF-PR.AA-01`): by dictionary, strongest dictionary first, then strongest requirement first; the control itself and its own clauses included. The same order as `frameworks[].requirements`.',
      examples: [['gdpr:GDPR-SEC-01', 'gdpr:art-32', 'iso-iec-27701:ISO27701-6.9.1']],
    }),
    affectedSystems: z.int().min(0).meta({ description: "How many of the tenant's systems the change reaches: the length of `systems`." }),
    frameworks: z
      .array(
        z.object({
          framework: z.string().meta({ description: 'Id of the dictionary.' }),
          weight: z.number().meta({ description: 'Strongest weight among its requirements.' }),
          requirements: z.array(Weighted).meta({ description: 'Its requirements the change reaches, strongest first.' }),
        }),
      )
      .meta({
        description:
          'The detail of `affectedFrameworks`: the dictionaries a change to the control reaches through the crosswalks, strongest first, each with its requirements, their titles, weights and hops.',
      }),
    systems: z
      .array(
        z.object({
          systemId: z.string().meta({ description: "Id of the tenant's system." }),
          evidence: z.array(z.string()).meta({ description: 'Its evidence records citing a reached control.' }),
          assessments: z.array(z.string()).meta({ description: 'Its assessments whose framework is reached.' }),
        }),
      )
      .meta({
        description:
          "The detail of `affectedSystems`: the tenant's systems whose evidence or assessments touch the reached requirements, by system id.",
      }),
  })
  .meta({ id: 'BlastRadius' });

export const EvidenceReuse = z
  .object({
    object: objectOf('svc.graph.evidence_reuse'),
    evidenceId: EvidenceId,
    controls: z.array(z.string()).meta({ description: 'The controls the evidence cites.' }),
    satisfies: z
      .array(
        Requirement.extend({
          coverage: Coverage,
          strength: z.int().meta({ description: 'Strength of the strongest edge.' }),
          via: Requirement.meta({ description: 'The requirement of the evidence the edge starts from.' }),
        }),
      )
      .meta({ description: 'Requirements of other dictionaries the evidence also satisfies, full coverage first, then by strength.' }),
  })
  .meta({ id: 'EvidenceReuse' });

export const OnboardingSavings = z
  .object({
    object: objectOf('svc.graph.onboarding_savings'),
    frameworks: z
      .array(
        z.object({
          framework: z.string().meta({ description: 'An activated dictionary.' }),
          dictionaryVersion: z.string().meta({ description: 'The activated version.' }),
          controls: z.int().meta({ description: 'Controls of that version.' }),
          direct: z.int().meta({ description: "Controls the tenant's evidence cites directly." }),
          viaCrosswalk: z
            .object({
              full: z.int().meta({ description: 'Controls fully covered through a crosswalk by evidence of another dictionary.' }),
              partial: z.int().meta({ description: 'Controls partly covered that way (and not fully).' }),
            })
            .meta({ description: 'Controls covered only through crosswalks.' }),
          savedShare: z
            .number()
            .meta({ description: 'Share of the controls covered through crosswalks: (full + partial / 2) / controls.' }),
          coveredShare: z.number().meta({ description: 'Share covered at all: (direct + full + partial / 2) / controls.' }),
        }),
      )
      .meta({ description: 'One entry per activated framework.' }),
    totals: z
      .object({
        controls: z.int().meta({ description: 'Controls of all activated frameworks.' }),
        savedShare: z.number().meta({ description: 'Overall share covered through crosswalks.' }),
      })
      .meta({ description: 'Across all activated frameworks.' }),
  })
  .meta({ id: 'OnboardingSavings' });

const Change = z.object({
  kind: z.enum(['clause', 'control', 'obligation']).meta({ description: 'What changed.' }),
  ref: z.string().meta({ description: 'Its id or reference.' }),
  title: z.string().meta({ description: 'Its title (the new one for a change).' }),
});

export const DictionaryImpact = z
  .object({
    object: objectOf('svc.graph.impact'),
    framework: z.string().meta({ description: 'Id of the dictionary.' }),
    from: z.string().meta({ description: 'Version compared from (the activated one unless given).' }),
    to: z.string().meta({ description: 'Version compared to (the latest unless given).' }),
    added: z.array(Change).meta({ description: 'Requirements in `to` only.' }),
    removed: z.array(Change).meta({ description: 'Requirements in `from` only.' }),
    changed: z.array(Change).meta({ description: 'Requirements in both whose text, title or references differ.' }),
    tenant: z
      .object({
        evidence: z
          .array(
            z.object({
              id: z.string().meta({ description: 'Id of the evidence record.' }),
              controls: z.array(z.string()).meta({ description: 'The removed or changed controls it cites.' }),
            }),
          )
          .meta({ description: 'Evidence records citing a removed or changed control, with those controls.' }),
        obligations: z
          .array(
            z.object({
              id: z.string().meta({ description: "Id of the tenant's obligation." }),
              sourceRef: z.string().meta({ description: 'Id of the dictionary obligation it was derived from.' }),
              change: z.enum(['removed', 'changed']).meta({ description: 'What the new version does to that obligation.' }),
            }),
          )
          .meta({ description: "The tenant's obligations derived from a removed or changed obligation." }),
      })
      .meta({ description: "What of the tenant's records the move touches." }),
  })
  .meta({ id: 'DictionaryImpact' });

const { read } = policyOf('graph');
const Version = z.string().regex(/^\d+\.\d+\.\d+$/);

export const graphRouter = c.router(
  {
    relations: get(
      '/relations',
      {
        query: PaginationQuery.extend({
          framework: DictionaryId.optional().meta({ description: 'Only edges with this dictionary on either side.' }),
          requirement: z
            .string()
            .min(1)
            .max(64)
            .optional()
            .meta({ description: 'Only edges with this control id or clause reference on either side.', examples: ['art-33'] }),
          relationship: Relationship.optional(),
        }),
      },
      listOf(Relation),
      read,
    ).doc(
      'List crosswalk edges between requirements of different dictionaries',
      'The crosswalk graph the service ships: each edge with its NIST OLIR relationship, rationale, strength 0-10 and note, both ends resolved to their titles. Filter by a dictionary, a requirement (either side) or a relationship; in content order, paginated by `limit` and `cursor`. Reference data, the same for every tenant.',
    ),
    blastRadius: post(
      '/blast-radius',
      {
        body: z
          .strictObject({
            control: z
              .string()
              .min(1)
              .max(64)
              .meta({ description: 'A control id of any dictionary (`CSF-PR.AA-01`, `GDPR-SEC-01`).', examples: ['GDPR-SEC-01'] }),
          })
          .meta({ id: 'BlastRadiusRequest', examples: [{ control: 'GDPR-SEC-01' }] }),
      },
      BlastRadius,
      read,
    ).doc(
      'What a change to one control reaches across dictionaries and systems',
      "Walks the crosswalk edges from the control and its clauses, up to two edges away, weighting each path by relationship (equal 1, subset or superset 0.8, intersect 0.5, not_related 0) times strength / 10 and keeping paths above 0.1. Returns `affectedFrameworks`, the reached requirements as `<dictionary>:<ref>` strings (framework and clause references, strongest dictionary first), and `affectedSystems`, the number of the tenant's systems whose evidence cites a reached control or whose assessments concern a reached dictionary; beside them `frameworks` (each dictionary with its requirements, titles, weights and hops) and `systems` (each system with those evidence records and assessments) give the detail. Reads only. 404 for an unknown control.",
    ),
    evidenceReuse: post(
      '/evidence-reuse',
      { body: z.strictObject({ evidenceId: EvidenceId }).meta({ id: 'EvidenceReuseRequest', examples: [{ evidenceId: EVIDENCE_ID }] }) },
      EvidenceReuse,
      read,
    ).doc(
      'Which other requirements one piece of evidence satisfies',
      "For each control the evidence cites (and that control's clauses), follows the crosswalk edges one step in either direction and reports the requirements of other dictionaries reached, with coverage `full` (equal, or the evidence's side is the superset) or `partial` (subset, intersect); where several edges reach one requirement, the strongest result wins. Reads only. 404 for an evidence id of another tenant or none.",
    ),
    onboardingSavings: get('/onboarding-savings', {}, OnboardingSavings, read).doc(
      "Share of the tenant's activated controls already covered through crosswalks",
      "For each framework the tenant activated: its controls, those the tenant's evidence cites directly, and those covered only through a crosswalk from evidence of another dictionary (full or partial), with the share saved. Computed from the tenant's evidence at the time of the call.",
    ),
    impact: get(
      '/impact',
      {
        query: z.object({
          framework: DictionaryId,
          from: Version.optional().meta({ description: 'Version to compare from; the activated version, else the oldest.' }),
          to: Version.optional().meta({ description: 'Version to compare to; the latest.' }),
        }),
      },
      DictionaryImpact,
      read,
    ).doc(
      'What moving a dictionary to another version changes for the tenant',
      "Compares two versions of a dictionary: clauses, controls and obligations added, removed and changed, and the tenant's evidence and obligations the removed or changed ones touch. 404 for an unknown dictionary or version.",
    ),
  },
  { pathPrefix: '/v1/graph', commonResponses: commonErrorResponses },
);
