/** An organization with its members and projects, as `/api/organization…` answers it. */
import { Type, type Static, type TBoolean } from '@sinclair/typebox';
import { memberFlags, type MemberFlag } from '../permissions.ts';
import { Nullable } from './wire.ts';

/** A member's flags (definitions/permissions.ts), every one present. */
export const MemberFlags = Type.Object(Object.fromEntries(memberFlags.map((flag) => [flag, Type.Boolean()])) as Record<MemberFlag, TBoolean>);

export const Member = Type.Object({
  email: Type.String(),
  username: Nullable(Type.String()),
  /** Clients read the member's name under both spellings; both are sent. */
  userName: Nullable(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('invited')]),
  permissions: MemberFlags,
});
export type Member = Static<typeof Member>;

export const ProjectSummary = Type.Object({ id: Type.String(), name: Type.String(), description: Type.String() });
export type ProjectSummary = Static<typeof ProjectSummary>;

export const Organization = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    createdDate: Type.String(),
    seats: Type.Integer(),
    /**
     * When the organization's first unpaid charge failed (ISO), or null (billing in good
     * standing, or BILLING=0): with the windows of `GET billing/getBillingStatuses` every
     * member's console derives the billing status (definitions/billing/status.ts).
     */
    initialBillingFailedDate: Nullable(Type.String()),
    projects: Type.Array(ProjectSummary),
    users: Type.Array(Member),
  },
  { $id: 'Organization' },
);
export type Organization = Static<typeof Organization>;
