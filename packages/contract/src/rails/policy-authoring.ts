import { z } from 'zod';
import { ControlRef, EXAMPLE_OTHER_USER, EXAMPLE_USER, listOf, PaginationQuery, prefixedId, Timestamp, UserId } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter } from '../resource.ts';
import {
  CREATED_BY_DESCRIPTION,
  created,
  EXAMPLE_AT,
  EXAMPLE_KEY,
  exampleId,
  exampleStamps,
  objectField,
  stamps,
} from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';

/**
 * The policy-authoring rail. A policy starts as a draft with version 1; every text change is a new,
 * immutable version. Publishing walks an approval chain of the stakeholders rail step by step; the
 * last approval publishes the version under approval. People attest the published version; a
 * published policy covers the controls it lists until it is retired. Adding a version to a
 * published policy opens a new draft revision: the policy is `draft` again until that revision is
 * published (the last published version stays readable, with its attestations).
 */

claimIdPrefix('pol', 'svc.policy_authoring.policy');
claimIdPrefix('pvr', 'svc.policy_authoring.policy_version');
claimIdPrefix('ppa', 'svc.policy_authoring.publication');
claimIdPrefix('pat', 'svc.policy_authoring.attestation');

/** The `object` field of a record of the rail (the description names the policy as its example). */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.policy_authoring.policy');

const EXAMPLE_POLICY_ID = exampleId('pol');
const EXAMPLE_CHAIN_ID = exampleId('apc');
const PolicyId = prefixedId('pol', EXAMPLE_POLICY_ID);
const ChainId = prefixedId('apc', EXAMPLE_CHAIN_ID);
/** When the first approver of the example walk approved. */
const EXAMPLE_DECIDED_AT = '2026-11-22T10:00:00.000Z';

const FrameworkIdParam = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
  .meta({ description: 'Id of a framework dictionary (`eu-ai-act`).', examples: ['eu-ai-act'] });

export const POLICY_STATUSES = ['draft', 'in_approval', 'published', 'retired'] as const;
const PolicyStatus = z.enum(POLICY_STATUSES).meta({
  description:
    '`draft` (versions may be added), `in_approval` (an approval chain is being walked), `published` (covers its controls; people attest it) or `retired` (covers nothing any more). Changes only through the publish, approve, reject, version and retire routes.',
});

/**
 * The lifecycle of a policy, declared once: the states each change is allowed from and the state
 * it leaves the policy in. `approve` is a step of the walk that is not the last (the policy stays
 * in approval), `publish` the last step's approval. Every other move is a 409 naming the state.
 */
export const POLICY_TRANSITIONS = {
  version: { from: ['draft', 'published'], to: 'draft' },
  submit: { from: ['draft'], to: 'in_approval' },
  approve: { from: ['in_approval'], to: 'in_approval' },
  publish: { from: ['in_approval'], to: 'published' },
  reject: { from: ['in_approval'], to: 'draft' },
  attest: { from: ['published'], to: 'published' },
  retire: { from: ['published'], to: 'retired' },
} as const satisfies Record<string, { from: readonly (typeof POLICY_STATUSES)[number][]; to: (typeof POLICY_STATUSES)[number] }>;

/** A version number in a path: 1, 2, ... */
const VersionNumber = z
  .string()
  .regex(/^[1-9][0-9]{0,5}$/)
  .meta({ description: 'Number of the version: 1 for the first, counting up.', examples: ['1'] });

// ---------------------------------------------------------------- policies

export const Policy = z
  .object({
    object: objectOf('svc.policy_authoring.policy'),
    id: PolicyId,
    title: z.string().meta({ description: 'Title of the policy.' }),
    status: PolicyStatus,
    controlIds: z
      .array(z.string())
      .meta({ description: 'Controls the policy covers once published (ids of controls of the shipped dictionaries).' }),
    ownerId: z.string().nullable().meta({ description: 'Id of the person (`usr_`) who owns the policy; null when not given.' }),
    currentVersion: z.int().min(1).meta({ description: 'Number of the newest version of the text.' }),
    publishedVersion: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'Number of the version last published (the one people attest); null until the first publication.' }),
    publishedAt: Timestamp.nullable().meta({ description: 'When the last publication took effect; null until then.' }),
    retiredAt: Timestamp.nullable().meta({ description: 'When the policy was retired; null while it is not.' }),
    ...stamps('When the policy last changed (new version, status change).'),
  })
  .meta({
    id: 'Policy',
    examples: [
      {
        object: 'svc.policy_authoring.policy',
        id: EXAMPLE_POLICY_ID,
        title: 'AI risk management policy',
        status: 'draft',
        controlIds: ['AIA-RMS-01'],
        ownerId: null,
        currentVersion: 1,
        publishedVersion: null,
        publishedAt: null,
        retiredAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreatePolicyBody = z
  .strictObject({
    title: z.string().min(1).max(200).meta({ description: 'Title of the policy.' }),
    controlIds: z
      .array(
        ControlRef.meta({ description: 'Id of a control of a shipped framework dictionary (`AIA-RMS-01`).', examples: ['AIA-RMS-01'] }),
      )
      .min(1)
      .max(100)
      .meta({ description: 'Controls the policy covers: ids of controls of the shipped dictionaries, each once; an unknown id is 422.' }),
    text: z
      .string()
      .min(1)
      .max(200_000)
      .meta({ description: 'Text of version 1, up to 200,000 characters; lines are compared by the diff route.' }),
    ownerId: UserId.optional().meta({ description: 'Id of the person (`usr_`) of the tenant who owns the policy; an unknown one is 422.' }),
  })
  .meta({
    id: 'CreatePolicyRequest',
    examples: [
      {
        title: 'AI risk management policy',
        controlIds: ['AIA-RMS-01'],
        text: 'Purpose\nEvery high-risk AI system has a documented risk management system.\nRisks are reviewed every quarter.',
      },
    ],
  });

// ---------------------------------------------------------------- versions

/** The text and note of the example policy's version 2 (its request and its record). */
const VERSION_2_EXAMPLE = {
  text: 'Purpose\nEvery high-risk AI system has a documented risk management system.\nRisks are reviewed every month.',
  note: 'Monthly reviews',
};

export const PolicyVersion = z
  .object({
    object: objectOf('svc.policy_authoring.policy_version'),
    id: prefixedId('pvr', exampleId('pvr')),
    policyId: z.string().meta({ description: 'Id of the policy (`pol_`).' }),
    number: z.int().min(1).meta({ description: 'Number of the version within its policy: 1, 2, ...' }),
    text: z.string().meta({ description: 'The text of this version; never changes.' }),
    note: z.string().nullable().meta({ description: 'What changed, in the author’s words; null when not given.' }),
    sha256: z.string().meta({ description: 'Lowercase hex SHA-256 of the UTF-8 text.' }),
    lines: z.int().min(0).meta({ description: 'Number of lines of the text.' }),
    ...created(),
  })
  .meta({
    id: 'PolicyVersion',
    examples: [
      {
        object: 'svc.policy_authoring.policy_version',
        id: exampleId('pvr'),
        policyId: EXAMPLE_POLICY_ID,
        number: 2,
        ...VERSION_2_EXAMPLE,
        sha256: '9f2c0f4a2d1b7e3c5a6b8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90',
        lines: 3,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const AddPolicyVersionBody = z
  .strictObject({
    policyId: PolicyId.meta({ description: 'Id of the policy (`pol_`) to add the version to.' }),
    text: z.string().min(1).max(200_000).meta({ description: 'The new text, up to 200,000 characters.' }),
    note: z.string().min(1).max(1000).optional().meta({ description: 'What changed, up to 1,000 characters.' }),
  })
  .meta({
    id: 'AddPolicyVersionRequest',
    examples: [{ policyId: EXAMPLE_POLICY_ID, ...VERSION_2_EXAMPLE }],
  });

export const PolicyDiff = z
  .object({
    object: objectOf('svc.policy_authoring.policy_diff'),
    policyId: z.string().meta({ description: 'Id of the policy.' }),
    from: z.int().min(1).meta({ description: 'Number of the version compared from (the older text, usually).' }),
    to: z.int().min(1).meta({ description: 'Number of the version compared to.' }),
    stats: z
      .object({
        added: z.int().min(0).meta({ description: 'Lines present in `to` and not in `from`.' }),
        removed: z.int().min(0).meta({ description: 'Lines present in `from` and not in `to`.' }),
        unchanged: z.int().min(0).meta({ description: 'Lines common to both (longest common subsequence of lines).' }),
      })
      .meta({ description: 'Counts of lines by kind of change.' }),
    changes: z
      .array(
        z.object({
          op: z.enum(['add', 'remove']).meta({ description: '`add`: the line is in `to` only; `remove`: in `from` only.' }),
          fromLine: z.int().min(1).nullable().meta({ description: 'Line number (1-based) in `from`; null for an added line.' }),
          toLine: z.int().min(1).nullable().meta({ description: 'Line number (1-based) in `to`; null for a removed line.' }),
          text: z.string().meta({ description: 'The line.' }),
        }),
      )
      .meta({ description: 'The added and removed lines, in reading order (a removal before the addition that replaces it).' }),
  })
  .meta({
    id: 'PolicyDiff',
    examples: [
      {
        object: 'svc.policy_authoring.policy_diff',
        policyId: EXAMPLE_POLICY_ID,
        from: 1,
        to: 2,
        stats: { added: 1, removed: 1, unchanged: 2 },
        changes: [
          { op: 'remove', fromLine: 3, toLine: null, text: 'Risks are reviewed every quarter.' },
          { op: 'add', fromLine: null, toLine: 3, text: 'Risks are reviewed every month.' },
        ],
      },
    ],
  });

// ---------------------------------------------------------------- publication

const Decision = z.object({
  step: z.int().min(1).meta({ description: 'Step of the chain (1-based).' }),
  approverId: z.string().meta({ description: 'Id of the person (`usr_`) who decided.' }),
  decision: z.enum(['approve', 'reject']).meta({ description: 'What they decided.' }),
  comment: z.string().nullable().meta({ description: 'Their comment; null when none.' }),
  at: Timestamp.meta({ description: 'When they decided.' }),
});

export const PolicyPublication = z
  .object({
    object: objectOf('svc.policy_authoring.publication'),
    id: prefixedId('ppa', exampleId('ppa')),
    policyId: z.string().meta({ description: 'Id of the policy being published.' }),
    version: z.int().min(1).meta({ description: 'Number of the version under approval.' }),
    chainId: z.string().meta({ description: 'Id of the approval chain (`apc_`) walked.' }),
    approverIds: z.array(z.string()).meta({ description: 'The approvers of the chain when the walk started, in order.' }),
    status: z.enum(['pending', 'approved', 'rejected']).meta({
      description:
        '`pending` while steps remain, `approved` once the last step approved (the version is published), `rejected` once a step rejected.',
    }),
    currentStep: z.int().min(1).nullable().meta({ description: 'Step awaiting a decision (1-based); null once the walk is over.' }),
    awaitingApproverId: z.string().nullable().meta({ description: 'Person whose decision is awaited; null once the walk is over.' }),
    decisions: z.array(Decision).meta({ description: 'Decisions taken so far, in order.' }),
    ...stamps('When the last decision was recorded (equals `createdAt` before the first).'),
  })
  .meta({
    id: 'PolicyPublication',
    examples: [
      {
        object: 'svc.policy_authoring.publication',
        id: exampleId('ppa'),
        policyId: EXAMPLE_POLICY_ID,
        version: 1,
        chainId: EXAMPLE_CHAIN_ID,
        approverIds: [EXAMPLE_USER, EXAMPLE_OTHER_USER],
        status: 'pending',
        currentStep: 2,
        awaitingApproverId: EXAMPLE_OTHER_USER,
        decisions: [{ step: 1, approverId: EXAMPLE_USER, decision: 'approve', comment: null, at: EXAMPLE_DECIDED_AT }],
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
        updatedAt: EXAMPLE_DECIDED_AT,
      },
    ],
  });

export const PublishPolicyBody = z
  .strictObject({
    policyId: PolicyId.meta({ description: 'Id of the draft policy to publish.' }),
    chainId: ChainId.meta({ description: 'Id of the approval chain (`apc_`) of the stakeholders rail to walk; an unknown one is 422.' }),
  })
  .meta({
    id: 'PublishPolicyRequest',
    examples: [{ policyId: EXAMPLE_POLICY_ID, chainId: EXAMPLE_CHAIN_ID }],
  });

export const PolicyDecisionBody = z
  .strictObject({
    policyId: PolicyId.meta({ description: 'Id of the policy in approval.' }),
    approverId: UserId.optional().meta({
      description:
        "The person deciding, who is always the person the credential is bound to: absent means that person; naming anyone else is 403 `forbidden`. They must be the current step's approver, else 409.",
    }),
    comment: z.string().min(1).max(2000).optional().meta({ description: 'Comment of the approver, up to 2,000 characters.' }),
  })
  .meta({
    id: 'PolicyDecisionRequest',
    examples: [{ policyId: EXAMPLE_POLICY_ID, approverId: EXAMPLE_USER, comment: 'Reviewed.' }],
  });

// ---------------------------------------------------------------- attestations

export const PolicyAttestation = z
  .object({
    object: objectOf('svc.policy_authoring.attestation'),
    id: prefixedId('pat', exampleId('pat')),
    policyId: z.string().meta({ description: 'Id of the policy attested.' }),
    version: z.int().min(1).meta({ description: 'Number of the published version attested.' }),
    userId: z.string().meta({ description: 'Id of the person (`usr_`) who attested.' }),
    createdBy: z.string().meta({ description: CREATED_BY_DESCRIPTION }),
    createdAt: Timestamp.meta({ description: 'When the attestation was recorded.' }),
  })
  .meta({
    id: 'PolicyAttestation',
    examples: [
      {
        object: 'svc.policy_authoring.attestation',
        id: exampleId('pat'),
        policyId: EXAMPLE_POLICY_ID,
        version: 1,
        userId: EXAMPLE_USER,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const AttestPolicyBody = z
  .strictObject({
    policyId: PolicyId.meta({ description: 'Id of the published policy.' }),
    userId: UserId.optional().meta({
      description:
        'The person attesting, who is always the person the credential is bound to: absent means that person; naming anyone else is 403 `forbidden`; an inactive person is 422.',
    }),
  })
  .meta({ id: 'AttestPolicyRequest', examples: [{ policyId: EXAMPLE_POLICY_ID, userId: EXAMPLE_USER }] });

const Person = z.object({
  userId: z.string().meta({ description: 'Id of the person (`usr_`).' }),
  name: z.string().meta({ description: 'Name of the person.' }),
  email: z.string().meta({ description: 'Email address of the person.' }),
});

export const PolicyAttestationCoverage = z
  .object({
    object: objectOf('svc.policy_authoring.attestation_coverage'),
    policyId: z.string().meta({ description: 'Id of the policy.' }),
    status: PolicyStatus,
    version: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'The published version counted (`publishedVersion`); null when the policy was never published.' }),
    roleIds: z.array(z.string()).meta({ description: 'Roles the people were restricted to; empty when every active person counts.' }),
    people: z.int().min(0).meta({ description: 'Active people counted (holding one of `roleIds` when given).' }),
    attested: z.int().min(0).meta({ description: 'Of those, the people who attested `version`.' }),
    pending: z.int().min(0).meta({ description: 'Of those, the people who have not attested `version`.' }),
    share: z.number().min(0).max(1).meta({ description: '`attested / people`, 0 to 1 (0 when nobody is counted).' }),
    attestedPeople: z
      .array(Person.extend({ attestedAt: Timestamp.meta({ description: 'When they attested.' }) }))
      .meta({ description: 'The people who attested, by name.' }),
    pendingPeople: z.array(Person).meta({ description: 'The people who have not attested, by name.' }),
    computedAt: Timestamp.meta({ description: 'When the coverage was computed.' }),
  })
  .meta({
    id: 'PolicyAttestationCoverage',
    examples: [
      {
        object: 'svc.policy_authoring.attestation_coverage',
        policyId: EXAMPLE_POLICY_ID,
        status: 'published',
        version: 1,
        roleIds: [],
        people: 2,
        attested: 1,
        pending: 1,
        share: 0.5,
        attestedPeople: [
          {
            userId: EXAMPLE_USER,
            name: 'Ines Duarte',
            email: 'ines.duarte@example.com',
            attestedAt: '2026-11-22T10:00:00.000Z',
          },
        ],
        pendingPeople: [{ userId: EXAMPLE_OTHER_USER, name: 'Tomas Berg', email: 'tomas.berg@example.com' }],
        computedAt: '2026-11-22T10:30:00.000Z',
      },
    ],
  });

// ---------------------------------------------------------------- retire

export const RetirePolicyBody = z
  .strictObject({
    policyId: PolicyId.meta({ description: 'Id of the published policy to retire.' }),
    reason: z.string().min(1).max(1000).optional().meta({ description: 'Why; kept in the audit event.' }),
  })
  .meta({ id: 'RetirePolicyRequest', examples: [{ policyId: EXAMPLE_POLICY_ID, reason: 'Replaced by the group-wide AI policy.' }] });

// ---------------------------------------------------------------- gap-fill

export const PolicyGap = z.object({
  framework: z.string().meta({ description: 'Id of the activated framework.' }),
  dictionaryVersion: z.string().meta({ description: '`<dictionary>@<version>` the control comes from.' }),
  controlId: z.string().meta({ description: 'Id of the control no published policy covers.' }),
  controlTitle: z.string().meta({ description: 'Title of the control.' }),
  category: z.string().meta({ description: 'Category of the control in its dictionary (`risk-management`).' }),
  outline: z
    .object({
      title: z.string().meta({ description: 'Proposed policy title, from the control title.' }),
      purpose: z.string().meta({ description: "Proposed purpose statement: the control's dictionary description." }),
      clauses: z
        .array(
          z.object({
            ref: z.string().meta({ description: 'Reference of the clause in the dictionary (`art-9`).' }),
            title: z.string().meta({ description: 'Title of the clause.' }),
            summary: z.string().meta({ description: "The dictionary's summary of the clause." }),
          }),
        )
        .meta({ description: 'Clauses the control cites, with their dictionary text.' }),
      sections: z
        .array(
          z.object({
            heading: z.string().meta({ description: 'Heading of the proposed section.' }),
            guidance: z.string().meta({ description: 'What the section should say, drawn from the control and its clauses.' }),
          }),
        )
        .meta({ description: 'Suggested sections, in order.' }),
    })
    .meta({ description: "A proposed outline for a policy covering the control, built from the control's dictionary text." }),
});

export const PolicyGapFill = z
  .object({
    object: objectOf('svc.policy_authoring.gap_fill'),
    frameworks: z
      .array(
        z.object({
          framework: z.string().meta({ description: 'Id of the activated framework.' }),
          dictionaryVersion: z.string().meta({ description: 'Activated `<dictionary>@<version>`.' }),
          controls: z.int().min(0).meta({ description: 'Controls of that version.' }),
          covered: z.int().min(0).meta({ description: 'Controls listed by at least one published policy.' }),
          gaps: z.int().min(0).meta({ description: 'Controls no published policy lists (`controls - covered`).' }),
        }),
      )
      .meta({ description: 'Counts per activated framework (restricted to `framework` when given), by framework id.' }),
    data: z.array(PolicyGap).meta({ description: 'The uncovered controls of this page, by framework then dictionary order.' }),
    cursor: z.string().nullable().meta({ description: 'Cursor of the next page; null on the last page.' }),
    computedAt: Timestamp.meta({ description: 'When the gaps were computed.' }),
  })
  .meta({
    id: 'PolicyGapFill',
    examples: [
      {
        object: 'svc.policy_authoring.gap_fill',
        frameworks: [{ framework: 'eu-ai-act', dictionaryVersion: 'eu-ai-act@1.0.0', controls: 71, covered: 1, gaps: 70 }],
        data: [
          {
            framework: 'eu-ai-act',
            dictionaryVersion: 'eu-ai-act@1.0.0',
            controlId: 'AIA-RMS-02',
            controlTitle: 'Risk identification and analysis',
            category: 'risk-management',
            outline: {
              title: 'Risk identification and analysis policy',
              purpose: 'Identify and analyse the known and reasonably foreseeable risks of each high-risk AI system.',
              clauses: [{ ref: 'art-9', title: 'Risk management system', summary: 'A risk management system shall be established.' }],
              sections: [
                { heading: 'Purpose', guidance: 'Identify and analyse the known and reasonably foreseeable risks.' },
                { heading: 'Scope', guidance: 'Applies to the risk-management activities under eu-ai-act.' },
              ],
            },
          },
        ],
        cursor: null,
        computedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- router

const area = 'policy_authoring';
const read = meta({ auth: 'tenant', rail: 'policy_authoring', permission: `${area}:read`, mutating: false });
const mutate = (action: 'write' | 'approve' | 'attest', audit: string) =>
  meta({ auth: 'tenant', rail: 'policy_authoring', permission: `${area}:${action}`, mutating: true, audit });
const policyParams = z.object({ id: PolicyId });
const NOT_FOUND = 'A policy of another tenant, or one that does not exist, is 404 `not_found`.';

export const policyAuthoringRouter = railRouter('policy_authoring', {
  drafts: {
    list: {
      method: 'GET',
      path: '/draft',
      query: PaginationQuery.extend({
        status: PolicyStatus.optional().meta({ description: 'Only policies in this state.' }),
        controlId: ControlRef.optional().meta({ description: 'Only policies that list this control.', examples: ['AIA-RMS-01'] }),
      }),
      responses: { 200: listOf(Policy) },
      summary: 'List policies',
      description:
        "Returns the tenant's policies in every state (each starts as a draft), newest first, as `{ data, cursor }` (`limit` 1 to 200, default 50). Filters `status` and `controlId`, combined with AND. Needs `policy_authoring:read`.",
      metadata: read,
    },
    create: {
      method: 'POST',
      path: '/draft',
      body: CreatePolicyBody,
      responses: { 201: Policy },
      summary: 'Draft a policy',
      description:
        'Creates a `draft` policy, id `pol_<ULID>`, with its text as version 1 (`currentVersion: 1`). Every control id must be a control of a shipped dictionary (422 naming the first unknown one); `ownerId` a person of the tenant. Needs `policy_authoring:write`; audited as `policy.drafted` and emitted as the webhook event of that name. Send an `Idempotency-Key` so that a retry does not create a second policy.',
      metadata: mutate('write', 'policy.drafted'),
    },
    get: {
      method: 'GET',
      path: '/draft/:id',
      pathParams: policyParams,
      responses: { 200: Policy },
      summary: 'Get a policy',
      description: `Returns the policy with this \`pol_\` id, whatever its state. Needs \`policy_authoring:read\`. ${NOT_FOUND}`,
      metadata: meta({ ...read, source: { object: 'svc.policy_authoring.policy' } }),
    },
  },
  versions: {
    add: {
      method: 'POST',
      path: '/version',
      body: AddPolicyVersionBody,
      responses: { 201: PolicyVersion },
      summary: 'Add a version of a policy',
      description:
        "Adds an immutable version numbered `currentVersion + 1`. Allowed while the policy is `draft`; on a `published` policy it opens a new draft revision (the policy becomes `draft` again and covers its controls only once the revision is published; the published version stays readable with its attestations). While `in_approval` or `retired`: 409 `conflict` naming the state, and nothing changes. Needs `policy_authoring:write`; audited as `policy.version_added`. 404 for another tenant's policy.",
      metadata: mutate('write', 'policy.version_added'),
    },
    list: {
      method: 'GET',
      path: '/version/:id',
      pathParams: policyParams,
      query: PaginationQuery,
      responses: { 200: listOf(PolicyVersion) },
      summary: "List a policy's versions",
      description: `Returns the versions of the policy, newest first, as \`{ data, cursor }\` (\`limit\` 1 to 200, default 50). Needs \`policy_authoring:read\`. ${NOT_FOUND}`,
      metadata: read,
    },
    diff: {
      method: 'GET',
      path: '/version/:id/diff',
      pathParams: policyParams,
      query: z.object({
        from: z.coerce
          .number()
          .int()
          .min(1)
          .optional()
          .meta({ description: 'Version compared from; the version before `to` when absent (or `to` itself for version 1).' }),
        to: z.coerce.number().int().min(1).optional().meta({ description: 'Version compared to; the newest version when absent.' }),
      }),
      responses: { 200: PolicyDiff },
      summary: 'Compare two versions of a policy',
      description: `Line diff between any two versions (either order): the lines added and removed (longest common subsequence of lines) with counts. A version the policy does not have is 404. Needs \`policy_authoring:read\`. ${NOT_FOUND}`,
      metadata: read,
    },
    get: {
      method: 'GET',
      path: '/version/:id/:number',
      pathParams: z.object({ id: PolicyId, number: VersionNumber }),
      responses: { 200: PolicyVersion },
      summary: 'Get a version of a policy',
      description: `Returns version \`number\` of the policy; 404 when the policy has no such version. Needs \`policy_authoring:read\`. ${NOT_FOUND}`,
      metadata: meta({ ...read, source: { object: 'svc.policy_authoring.policy_version', params: { id: 'policyId' } } }),
    },
  },
  publish: {
    start: {
      method: 'POST',
      path: '/publish',
      body: PublishPolicyBody,
      responses: { 201: PolicyPublication },
      summary: 'Submit a policy for publication',
      description:
        "Starts walking the approval chain for the policy's current version: the policy becomes `in_approval` and the first approver of the chain is awaited. Allowed from `draft`; otherwise 409 `conflict` naming the state. The chain must be the tenant's (422 otherwise) and its approvers active people. Needs `policy_authoring:write`; audited as `policy.submitted`. 404 for another tenant's policy.",
      metadata: mutate('write', 'policy.submitted'),
    },
    list: {
      method: 'GET',
      path: '/publish',
      query: PaginationQuery.extend({
        policyId: PolicyId.optional().meta({ description: 'Only the walks of this policy.' }),
        status: z.enum(['pending', 'approved', 'rejected']).optional().meta({ description: 'Only walks in this state.' }),
      }),
      responses: { 200: listOf(PolicyPublication) },
      summary: 'List publication walks',
      description:
        "Returns the tenant's approval walks (one per submission), newest first, as `{ data, cursor }` (`limit` 1 to 200, default 50), with each step's decision. Needs `policy_authoring:read`.",
      metadata: meta({ ...read, source: { object: 'svc.policy_authoring.publication' } }),
    },
    approve: {
      method: 'POST',
      path: '/publish/approve',
      body: PolicyDecisionBody,
      responses: { 200: PolicyPublication },
      summary: 'Approve the current step',
      description:
        "Records the approval of the current step by its approver, the person the API key acts for (`personId` of the key; a service key, or a body `approverId` naming someone else, is 403 `forbidden`; another person than the awaited one: 409 naming them). The last step's approval publishes the version under approval: the policy becomes `published` with `publishedVersion` set, and coverage of attestations starts afresh for that version. A policy not `in_approval`: 409 naming its state. Needs `policy_authoring:approve`; audited as `policy.approved` with the person as the actor and the key in `data.credentialId` (and `policy.published` for the last step).",
      metadata: mutate('approve', 'policy.approved'),
    },
    reject: {
      method: 'POST',
      path: '/publish/reject',
      body: PolicyDecisionBody,
      responses: { 200: PolicyPublication },
      summary: 'Reject at the current step',
      description:
        'Records the rejection by the approver of the current step, the person the API key acts for (a service key, or a body `approverId` naming someone else: 403; another person than the awaited one: 409): the walk ends `rejected` and the policy returns to `draft`. A policy not `in_approval`: 409 naming its state. Needs `policy_authoring:approve`; audited as `policy.rejected`.',
      metadata: mutate('approve', 'policy.rejected'),
    },
  },
  attest: {
    create: {
      method: 'POST',
      path: '/attest',
      body: AttestPolicyBody,
      responses: { 201: PolicyAttestation },
      summary: 'Record an attestation',
      description:
        "Records that the person the API key acts for (`personId` of the key; a service key, or a body `userId` naming someone else, is 403 `forbidden`) attests the policy's published version. Only a `published` policy (409 naming the state otherwise); once per person per version (409 the second time). Needs `policy_authoring:attest`; audited as `policy.attested`.",
      metadata: mutate('attest', 'policy.attested'),
    },
    list: {
      method: 'GET',
      path: '/attest',
      query: PaginationQuery.extend({
        policyId: PolicyId.optional().meta({ description: 'Only attestations of this policy.' }),
        userId: UserId.optional().meta({ description: 'Only attestations of this person.' }),
      }),
      responses: { 200: listOf(PolicyAttestation) },
      summary: 'List attestations',
      description:
        "Returns the tenant's attestations, newest first, as `{ data, cursor }` (`limit` 1 to 200, default 50). Needs `policy_authoring:read`.",
      metadata: meta({ ...read, source: { object: 'svc.policy_authoring.attestation' } }),
    },
    coverage: {
      method: 'GET',
      path: '/attest/:id/coverage',
      pathParams: policyParams,
      query: z.object({
        roleIds: z
          .string()
          .regex(/^rol_[0-9A-HJKMNP-TV-Z]{26}(,rol_[0-9A-HJKMNP-TV-Z]{26}){0,19}$/)
          .optional()
          .meta({
            description: 'Comma-separated role ids: count only active people holding one of them.',
            examples: [exampleId('rol')],
          }),
      }),
      responses: { 200: PolicyAttestationCoverage },
      summary: 'Attestation coverage of a policy',
      description: `Who among the active people (optionally of the given roles) has attested the policy's published version and who has not, with counts and share. A new published version starts from nobody. A never-published policy counts everybody as pending with \`version\` null. Computed at request time. Needs \`policy_authoring:read\`. ${NOT_FOUND}`,
      metadata: read,
    },
  },
  retire: {
    method: 'POST',
    path: '/retire',
    body: RetirePolicyBody,
    responses: { 200: Policy },
    summary: 'Retire a policy',
    description:
      'Moves a `published` policy to `retired`: it no longer covers its controls and takes no attestations. From any other state: 409 `conflict` naming it, and nothing changes. Needs `policy_authoring:write`; audited as `policy.retired` (with the optional `reason`).',
    metadata: mutate('write', 'policy.retired'),
  },
  gapFill: {
    method: 'GET',
    path: '/gap-fill',
    query: PaginationQuery.extend({
      framework: FrameworkIdParam.optional().meta({ description: 'Only this activated framework.' }),
    }),
    responses: { 200: PolicyGapFill },
    summary: 'Controls without a covering policy, with proposed outlines',
    description:
      "For each framework the tenant has activated, the controls that no `published` policy lists, each with a proposed policy outline built from the control's dictionary text (title, purpose, the clauses it cites with their summaries, suggested sections). Paged in dictionary order with `limit` and `cursor`; the counts cover every page. Computed at request time. Needs `policy_authoring:read`.",
    metadata: read,
  },
});

/**
 * Event types the policy_authoring rail adds to the registry. It also emits the types the
 * specification names, registered with the planned ones: `policy.drafted`, `policy.published` and
 * `policy.retired` (data: the policy) and `policy.attested` (data: `id` and `title` of the policy,
 * its `status`, the attested `version`, `principal` the person who attested, and `attestationId`).
 */
export const policyAuthoringEvents = [
  eventType('policy.version_added', 'A new immutable version of a policy was added.', PolicyVersion),
  eventType('policy.submitted', 'A policy was submitted for publication through an approval chain.', PolicyPublication),
  eventType('policy.approved', 'An approver approved a step of a publication walk.', PolicyPublication),
  eventType('policy.rejected', 'An approver rejected a publication; the policy is a draft again.', PolicyPublication),
];
