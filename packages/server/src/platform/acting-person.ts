import type { Tx } from '../db/client.ts';
import { scopeToTenant } from '../db/tenant-scope.ts';
import { ApiError, invalid } from '../errors.ts';
import type { Actor } from './ledger/changes.ts';

/**
 * The writer of a person's own act (an approval step, a sign-off): the request's actor and the
 * person its credential is bound to (null for a service key). The person comes from the
 * credential, never from the body, so one key cannot act as several people.
 */
export interface PersonActor extends Actor {
  personId: string | null;
}

/** The person a request acts as, as `actingPerson` finds them. */
export interface ActingPerson {
  id: string;
  status: string;
  name: string;
  email: string;
}

/**
 * The person a request acts as. `named` is the body's optional person field (kept for
 * compatibility): absent means the credential's person; a person of the tenant other than the
 * credential's is 403 `forbidden`; an id that is no person of the tenant stays 422 at `field`.
 * A service key (bound to nobody) may not act as a person: 403.
 */
export async function actingPerson(tx: Tx, who: PersonActor, field: string, named: string | undefined, act: string): Promise<ActingPerson> {
  const people = scopeToTenant(tx, who.tenantId).stakeholderUser;
  if (named !== undefined) {
    const found = await people.findFirst({ where: { id: named }, select: { id: true } });
    if (!found) throw invalid(field, `Person ${named} does not exist in this tenant.`);
  }
  if (who.personId === null) {
    throw new ApiError(
      'forbidden',
      `This API key is a service key bound to no person, so it cannot ${act}: use a key bound to the person who acts (an operator creates one with personId).`,
      [{ field: 'authorization', issue: 'service_key' }],
    );
  }
  if (named !== undefined && named !== who.personId) {
    throw new ApiError(
      'forbidden',
      `This API key acts for ${who.personId}; ${field} names ${named}. A person can ${act} only as themselves: leave ${field} out or name ${who.personId}.`,
      [{ field, issue: 'not_acting_person', message: `the credential acts for ${who.personId}` }],
    );
  }
  const person = await people.findFirst({ where: { id: who.personId }, select: { id: true, status: true, name: true, email: true } });
  // The key's person was removed from the tenant (a sandbox reset): the key acts for no one now.
  if (!person) {
    throw new ApiError('forbidden', `The person ${who.personId} this API key acts for no longer exists in this tenant.`, [
      { field: 'authorization', issue: 'person_gone' },
    ]);
  }
  return person;
}

/** The actor of the audit event of a person's own act: the person, with the credential in the data. */
export function personAsActor(who: PersonActor, personId: string): Actor {
  return { tenantId: who.tenantId, actor: personId, correlationId: who.correlationId };
}
