import { initContract } from '@ts-rest/core';
import { RAILS } from '../rails/index.ts';
import * as searchRail from '../rails/search/rail.ts';
import { type RailRoutersOf, railEventTypes, railRoutersOf } from './rail.ts';
import { registerEventTypes } from './webhook-events.ts';

const c = initContract();

/**
 * Every rail of the contract: the list of the rails index, then the search rail, which is built
 * from the kinds the listed rails declare. This file does not change per rail.
 */
const CONTRACT_RAILS = [...RAILS, searchRail] as const;

/**
 * The routers of the contract by key. Derived from the list of modules, so declaration files name
 * each rail's router type (`typeof complianceRail`'s `router`) instead of inlining them all.
 */
export type RailRouters = RailRoutersOf<typeof CONTRACT_RAILS>;

/**
 * The whole API. Each key is a namespace of the SDK and a group of Express routes; rails are keyed
 * by their catalogue id.
 */
export const contract: RailRouters = c.router(railRoutersOf(CONTRACT_RAILS));

export type Contract = typeof contract;

// The event types of the rails join the registry after its planned ones, in the order of the list.
registerEventTypes(railEventTypes(CONTRACT_RAILS));
