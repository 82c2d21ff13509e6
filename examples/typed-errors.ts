// Typed errors: every non-2xx answer is a subclass of SvcError; a 422 names each failing field.
import { createSvcClient, isSvcError, ValidationFailedError } from '@svc/sdk';
import { apiKey, baseUrl } from './env.ts';

const svc = createSvcClient({ baseUrl, apiKey });

try {
  // The cast sends what an untyped caller might: the body lacks `systemId`.
  await svc.compliance.assessments.create({ body: { type: 'fria', jurisdiction: 'eu/de' } as never });
} catch (err) {
  if (err instanceof ValidationFailedError) {
    console.log(`status ${err.status} ${err.code}`);
    for (const detail of err.details) console.log(`field ${detail.field}: ${detail.issue}`);
    // Quote the correlation id in a support request: it finds the request in the server's logs.
    console.log(`correlation ${err.correlationId}`);
  } else if (isSvcError(err)) {
    console.log(`unexpected ${err.status} ${err.code}`);
  } else {
    throw err;
  }
}
