import { initContract } from '@ts-rest/core';
import { type RailRouters, railRouters } from './rails/index.ts';

const c = initContract();

/**
 * The whole API. Each key is a namespace of the SDK and a group of Express routes; rails are keyed
 * by their catalogue id. Rails are collected in rails/index.ts; this file does not change per rail.
 */
export const contract: RailRouters = c.router(railRouters);

export type Contract = typeof contract;
