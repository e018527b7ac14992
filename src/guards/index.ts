/** The guard registry: the route table names guards, the router looks them up here. */
import type { GuardName } from '../../definitions/routes.ts';
import type { Guard } from '../../renderers/router/types.ts';
import { billingStatus } from './billing-status.ts';
import { confirmUserEmail } from './confirm-user-email.ts';
import { home } from './home.ts';
import { joinOrganization } from './join-organization.ts';
import { organizationMember } from './organization-member.ts';
import { platformAdmin } from './platform-admin.ts';
import { signedIn } from './signed-in.ts';
import { signedOut } from './signed-out.ts';

export const guards: Readonly<Record<GuardName, Guard>> = {
  signedIn,
  signedOut,
  home,
  confirmUserEmail,
  organizationMember,
  joinOrganization,
  billingStatus,
  platformAdmin,
};
