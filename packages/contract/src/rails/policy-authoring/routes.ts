import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { ControlRef, listOf, PaginationQuery, UserId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';
import { PolicyId, PolicyStatus } from './fields.ts';
import {
  AddPolicyVersionBody,
  AttestPolicyBody,
  CreatePolicyBody,
  POLICY_TRANSITIONS,
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

// ---------------------------------------------------------------- resources

/**
 * The policies, from the kit: a policy is drafted at `POST /draft` and read at `/draft` whatever its
 * state, and retired at `POST /retire` (the policy named in the body). Its other changes (a
 * version, the publication walk) stay routes of their own: each records another record with it.
 * The create emits `policy.drafted`, a type the specification names and the planned ones register:
 * the resource's events are left out of policyAuthoringEvents, as the registry refuses a type twice.
 */
export const policyDrafts = resource({
  rail: 'policy_authoring',
  path: 'draft',
  name: 'policy',
  label: { one: 'policy', many: 'policies' },
  idPrefix: 'pol',
  record: Policy,
  statusField: 'status',
  filters: {
    status: PolicyStatus.optional().meta({ description: 'Only policies in this state.' }),
    controlId: ControlRef.optional().meta({ description: 'Only policies that list this control.', examples: ['AIA-RMS-01'] }),
  },
  filterFields: { controlId: 'controlIds[]' },
  create: {
    body: CreatePolicyBody,
    action: 'policy.drafted',
    summary: 'Draft a policy',
    description:
      'Creates a `draft` policy with its text as version 1 (`currentVersion: 1`). Every control id must be a control of a shipped dictionary (422 naming the first unknown one); `ownerId` a person of the tenant.',
    eventSummary: 'A policy draft was created.',
  },
  transitions: {
    // The specification names the policy in the body: `POST /retire` with `policyId`.
    retire: {
      from: POLICY_TRANSITIONS.retire.from,
      to: POLICY_TRANSITIONS.retire.to,
      idField: 'policyId',
      path: 'retire',
      body: RetirePolicyBody,
      action: 'policy.retired',
      summary: 'Retire a policy',
      description: 'It no longer covers its controls and takes no attestations.',
    },
  },
  notes: {
    list: 'Lists policies in every state (each starts as a draft).',
    get: 'Policies in every state are read here: drafts, those in approval, published and retired ones.',
  },
});

/**
 * The walks of approval chains, from the kit: only their list. Starting a walk and deciding its
 * steps stay routes of their own (`publish.start`, `approve`, `reject`): each moves the policy as
 * well, and a decision is recorded as the approver, not the API key.
 */
export const policyPublications = resource({
  rail: 'policy_authoring',
  path: 'publish',
  name: 'publication',
  label: { one: 'publication walk', many: 'publication walks' },
  idPrefix: 'ppa',
  record: PolicyPublication,
  get: false,
  filters: {
    policyId: PolicyId.optional().meta({ description: 'Only the walks of this policy.' }),
    status: z.enum(['pending', 'approved', 'rejected']).optional().meta({ description: 'Only walks in this state.' }),
  },
  setup: [
    {
      method: 'POST',
      path: '/v1/stakeholders/users',
      body: { name: 'Ines Duarte', email: 'approver.{{unique}}@example.com' },
      as: 'approver',
    },
    {
      method: 'POST',
      path: '/v1/stakeholders/approval-chains',
      body: { name: 'Policy approval {{unique}}', approverIds: ['{{approver.id}}'] },
      as: 'chain',
    },
    {
      method: 'POST',
      path: '/v1/policies/draft',
      body: {
        title: 'AI risk management policy',
        controlIds: ['AIA-RMS-01'],
        text: 'Purpose\nEvery high-risk AI system has a documented risk management system.',
      },
      as: 'policy',
    },
    { method: 'POST', path: '/v1/policies/publish', body: { policyId: '{{policy.id}}', chainId: '{{chain.id}}' } },
  ],
  notes: { list: "One walk per submission of a policy, with each step's decision." },
});

// ---------------------------------------------------------------- router

const { read, write, changes } = policyOf('policy_authoring');
const policyParams = z.object({ id: PolicyId });
const ByPolicy = { pathParams: policyParams };
const NOT_FOUND = 'A policy of another tenant, or one that does not exist, is 404 `not_found`.';

/** Retirement sits at the rail's `POST /retire`, beside the drafts' routes (the SDK's `policies.retire`). */
const { retire: retirePolicy, ...draftRoutes } = policyDrafts.routes;

export const policyAuthoringRouter = railRouter('policy_authoring', {
  drafts: draftRoutes,
  // A version is a record under its policy (`/version/:id/:number`), and adding one moves the
  // policy back to draft, which its audit event records (`from`, `to`): declared by hand.
  versions: {
    add: post('/version', { body: AddPolicyVersionBody }, { 201: PolicyVersion }, write('policy.version_added')).doc(
      'Add a version of a policy',
      "Adds an immutable version numbered `currentVersion + 1`. Allowed while the policy is `draft`; on a `published` policy it opens a new draft revision (the policy becomes `draft` again and covers its controls only once the revision is published; the published version stays readable with its attestations). While `in_approval` or `retired`: 409 `conflict` naming the state, and nothing changes. Needs `policy_authoring:write`; audited as `policy.version_added`. 404 for another tenant's policy.",
    ),
    list: get('/version/:id', { ...ByPolicy, query: PaginationQuery }, listOf(PolicyVersion), read).doc(
      "List a policy's versions",
      `Returns the versions of the policy, newest first, as \`{ data, cursor }\` (\`limit\` 1 to 200, default 50). Needs \`policy_authoring:read\`. ${NOT_FOUND}`,
    ),
    diff: get(
      '/version/:id/diff',
      {
        ...ByPolicy,
        query: z.object({
          from: z.coerce
            .number()
            .int()
            .min(1)
            .optional()
            .meta({ description: 'Version compared from; the version before `to` when absent (or `to` itself for version 1).' }),
          to: z.coerce.number().int().min(1).optional().meta({ description: 'Version compared to; the newest version when absent.' }),
        }),
      },
      PolicyDiff,
      read,
    ).doc(
      'Compare two versions of a policy',
      `Line diff between any two versions (either order): the lines added and removed (longest common subsequence of lines) with counts. A version the policy does not have is 404. Needs \`policy_authoring:read\`. ${NOT_FOUND}`,
    ),
    get: get(
      '/version/:id/:number',
      { pathParams: z.object({ id: PolicyId, number: VersionNumber }) },
      PolicyVersion,
      meta({ ...read, source: { object: 'svc.policy_authoring.policy_version', params: { id: 'policyId' } } }),
    ).doc(
      'Get a version of a policy',
      `Returns version \`number\` of the policy; 404 when the policy has no such version. Needs \`policy_authoring:read\`. ${NOT_FOUND}`,
    ),
  },
  publish: {
    start: post('/publish', { body: PublishPolicyBody }, { 201: PolicyPublication }, write('policy.submitted')).doc(
      'Submit a policy for publication',
      "Starts walking the approval chain for the policy's current version: the policy becomes `in_approval` and the first approver of the chain is awaited. Allowed from `draft`; otherwise 409 `conflict` naming the state. The chain must be the tenant's (422 otherwise) and its approvers active people. Needs `policy_authoring:write`; audited as `policy.submitted`. 404 for another tenant's policy.",
    ),
    list: policyPublications.routes.list,
    approve: post(
      '/publish/approve',
      { body: PolicyDecisionBody },
      PolicyPublication,
      changes('policy_authoring:approve', 'policy.approved'),
    ).doc(
      'Approve the current step',
      "Records the approval of the current step by its approver, the person the API key acts for (`personId` of the key; a service key, or a body `approverId` naming someone else, is 403 `forbidden`; another person than the awaited one: 409 naming them). The last step's approval publishes the version under approval: the policy becomes `published` with `publishedVersion` set, and coverage of attestations starts afresh for that version. A policy not `in_approval`: 409 naming its state. Needs `policy_authoring:approve`; audited as `policy.approved` with the person as the actor and the key in `data.credentialId` (and `policy.published` for the last step).",
    ),
    reject: post(
      '/publish/reject',
      { body: PolicyDecisionBody },
      PolicyPublication,
      changes('policy_authoring:approve', 'policy.rejected'),
    ).doc(
      'Reject at the current step',
      'Records the rejection by the approver of the current step, the person the API key acts for (a service key, or a body `approverId` naming someone else: 403; another person than the awaited one: 409): the walk ends `rejected` and the policy returns to `draft`. A policy not `in_approval`: 409 naming its state. Needs `policy_authoring:approve`; audited as `policy.rejected`.',
    ),
  },
  // An attestation is made with the key of the person attesting, recorded with that person as the
  // actor and emitted as the policy with `principal`. Its list stays declared by hand too: a kit
  // list needs setup calls that bring a record into being, and a service key cannot attest.
  attest: {
    create: post(
      '/attest',
      { body: AttestPolicyBody },
      { 201: PolicyAttestation },
      changes('policy_authoring:attest', 'policy.attested'),
    ).doc(
      'Record an attestation',
      "Records that the person the API key acts for (`personId` of the key; a service key, or a body `userId` naming someone else, is 403 `forbidden`) attests the policy's published version. Only a `published` policy (409 naming the state otherwise); once per person per version (409 the second time). Needs `policy_authoring:attest`; audited as `policy.attested`.",
    ),
    list: get(
      '/attest',
      {
        query: PaginationQuery.extend({
          policyId: PolicyId.optional().meta({ description: 'Only attestations of this policy.' }),
          userId: UserId.optional().meta({ description: 'Only attestations of this person.' }),
        }),
      },
      listOf(PolicyAttestation),
      meta({ ...read, source: { object: 'svc.policy_authoring.attestation' } }),
    ).doc(
      'List attestations',
      "Returns the tenant's attestations, newest first, as `{ data, cursor }` (`limit` 1 to 200, default 50). Needs `policy_authoring:read`.",
    ),
    coverage: get(
      '/attest/:id/coverage',
      {
        ...ByPolicy,
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
      },
      PolicyAttestationCoverage,
      read,
    ).doc(
      'Attestation coverage of a policy',
      `Who among the active people (optionally of the given roles) has attested the policy's published version and who has not, with counts and share. A new published version starts from nobody. A never-published policy counts everybody as pending with \`version\` null. Computed at request time. Needs \`policy_authoring:read\`. ${NOT_FOUND}`,
    ),
  },
  retire: retirePolicy,
  gapFill: get(
    '/gap-fill',
    {
      query: PaginationQuery.extend({
        framework: FrameworkIdParam.optional().meta({ description: 'Only this activated framework.' }),
      }),
    },
    PolicyGapFill,
    read,
  ).doc(
    'Controls without a covering policy, with proposed outlines',
    "For each framework the tenant has activated, the controls that no `published` policy lists, each with a proposed policy outline built from the control's dictionary text (title, purpose, the clauses it cites with their summaries, suggested sections). Paged in dictionary order with `limit` and `cursor`; the counts cover every page. Computed at request time. Needs `policy_authoring:read`.",
  ),
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
