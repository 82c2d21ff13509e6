/**
 * The marketplace rail (starter and above): listed consultants and published listings of every
 * firm, readable by every tenant of the platform (public fields only); engagements, in which a
 * client tenant grants a firm read access to its posture; reviews of engagements; and matching,
 * which ranks listings by fit to the caller's frameworks and open gaps.
 */

export * from './routes.ts';
export * from './schemas.ts';
