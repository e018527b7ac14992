/**
 * Platform decisions that could have been hard-coded as ids or names. They are data here (and the
 * server adds what its environment names), never ids in code.
 */
export const platform = {
  /** Usernames that count as admin in every organization ("a fixed list of super-admin usernames").
   * The server adds SUPER_ADMIN_USERNAMES from its environment, and users made with ADMIN_EMAIL. */
  superAdminUsernames: [] as string[],
  /** Seats a new organization starts with; an admin adds more (the billing issue prices them). */
  defaultSeats: 3,
  /** How long an invitation link stays valid. */
  inviteTtlDays: 14,
  /** Bounds of names and texts people type. */
  limits: {
    organizationNameMax: 100,
    projectNameMax: 100,
    projectDescriptionMax: 2000,
    tokenNameMax: 100,
    invitesPerRequest: 50,
    seatsPerRequest: 1000,
  },
} as const;
