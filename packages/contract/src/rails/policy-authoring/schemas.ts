import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { ControlRef, EXAMPLE_OTHER_USER, EXAMPLE_USER, prefixedId, Timestamp, UserId } from '../../shared/common.ts';
import {
  CREATED_BY_DESCRIPTION,
  created,
  EXAMPLE_AT,
  EXAMPLE_KEY,
  exampleId,
  exampleStamps,
  objectField,
  stamps,
} from '../../shared/records.ts';
import { EXAMPLE_POLICY_ID, type POLICY_STATUSES, PolicyId, PolicyStatus } from './fields.ts';

/** The policy authoring rail's records, request bodies and their examples (index.ts describes the rail). */

claimIdPrefix('pol', 'svc.policy_authoring.policy');
claimIdPrefix('pvr', 'svc.policy_authoring.policy_version');
claimIdPrefix('ppa', 'svc.policy_authoring.publication');
claimIdPrefix('pat', 'svc.policy_authoring.attestation');

/** The `object` field of a record of the rail (the description names the policy as its example). */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.policy_authoring.policy');

const EXAMPLE_CHAIN_ID = exampleId('apc');
const ChainId = prefixedId('apc', EXAMPLE_CHAIN_ID);
/** When the first approver of the example walk approved. */
const EXAMPLE_DECIDED_AT = '2026-11-22T10:00:00.000Z';

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
