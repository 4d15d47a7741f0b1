import type { UnexercisedGrant } from './request-check';

/** Grants no request of the tests can use, each with its reason. Keep it short: a grant not here must be used. */
export const UNEXERCISED_GRANTS: readonly UnexercisedGrant[] = [];
