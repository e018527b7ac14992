import type { Guard } from '../../renderers/router/types.ts';

/**
 * PASS-THROUGH until invites exist. Its issue makes it: read the invite; signed in, accept it and
 * go to that organization; signed out, go to login (invited user verified) or signup, with inviteID.
 */
export const joinOrganization: Guard = () => undefined;
