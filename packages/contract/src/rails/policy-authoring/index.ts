/**
 * The policy-authoring rail. A policy starts as a draft with version 1; every text change is a new,
 * immutable version. Publishing walks an approval chain of the stakeholders rail step by step; the
 * last approval publishes the version under approval. People attest the published version; a
 * published policy covers the controls it lists until it is retired. Adding a version to a
 * published policy opens a new draft revision: the policy is `draft` again until that revision is
 * published (the last published version stays readable, with its attestations).
 */

export { POLICY_STATUSES } from './fields.ts';
export * from './routes.ts';
export * from './schemas.ts';
