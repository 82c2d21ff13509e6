import { z } from 'zod';
import { meta } from '../../platform/meta.ts';
import { railRouter } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { ControlRef, listOf, PaginationQuery, UserId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';
import { PolicyId, PolicyStatus } from './fields.ts';
import {
  AddPolicyVersionBody,
  AttestPolicyBody,
  CreatePolicyBody,
  Policy,
  PolicyAttestation,
  PolicyAttestationCoverage,
  PolicyDecisionBody,
  PolicyDiff,
  PolicyGapFill,
  PolicyPublication,
  PolicyVersion,
  PublishPolicyBody,
  RetirePolicyBody,
} from './schemas.ts';

/** The policy authoring rail's resources and hand-declared routes, its router and the event types it emits. */

const FrameworkIdParam = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
  .meta({ description: 'Id of a framework dictionary (`eu-ai-act`).', examples: ['eu-ai-act'] });

/** A version number in a path: 1, 2, ... */
const VersionNumber = z
  .string()
  .regex(/^[1-9][0-9]{0,5}$/)
  .meta({ description: 'Number of the version: 1 for the first, counting up.', examples: ['1'] });

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
