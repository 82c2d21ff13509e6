/**
 * The litigation_hold rail (`/v1/litigation-hold`, enterprise): legal holds over records of the
 * tenant (named explicitly, or matched by criteria resolved when asked), their custodians and the
 * acknowledgement of the hold notice, the append-only preservation log, and eDiscovery exports of
 * the held records with a SHA-256 per record and of the manifest. A held record cannot be deleted
 * (label and watchlist removal answer 409) nor reset (the sandbox reset keeps it) until every hold
 * covering it is released.
 */

export * from './routes.ts';
export * from './schemas.ts';
