/**
 * The trust rail (`/v1/trust`, sandbox): the tenant's certifications and sub-processors, the NDA
 * vault (documents and the requests to read them), the trust posture, the public trust page
 * (published, unpublished, read without a token) and the answers to security questionnaires.
 */

export * from './routes.ts';
export * from './schemas.ts';
