/**
 * The public_disclosure rail (`/v1/public-disclosure`, enterprise): documents generated from the
 * tenant's AI-system records (compliance assessments and evidence of the system, the register
 * risks, GPAI summaries and red-team runs its profile links) and versioned. Every generation is a
 * new immutable version with the SHA-256 of its canonical content and the sources it used:
 * identical inputs give the same hash, a changed record a new one. Kinds: transparency notices,
 * EU AI Act Art. 50 disclosures (which duties of 50(1)-(4) apply, from the system profile, and the
 * text each requires), Art. 53(1)(a)-(d) GPAI documentation (Annex XI/XII items filled from the
 * records, missing ones listed) and model cards.
 */

export * from './routes.ts';
export * from './schemas.ts';
