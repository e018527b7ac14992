/**
 * The screen registry: the route table names a screen, the router loads it from here on first use.
 * Each import is its own bundle chunk, so the sign-in page loads only the sign-in screen.
 */
import type { ScreenName } from '../../definitions/routes.ts';
import type { ScreenLoader } from '../../renderers/router/types.ts';

export const screens: Readonly<Record<ScreenName, ScreenLoader>> = {
  login: () => import('./LoginScreen.tsx'),
  signup: () => import('./SignupScreen.tsx'),
  forgotPassword: () => import('./ForgotPasswordScreen.tsx'),
  resetPassword: () => import('./ResetPasswordScreen.tsx'),
  questionnaire: () => import('./QuestionnaireScreen.tsx'),
  docs: () => import('./DocsScreen.tsx'),
  devMailbox: () => import('./DevMailboxScreen.tsx'),
  notFound: () => import('./NotFoundScreen.tsx'),
  home: () => import('./HomeScreen.tsx'),
  newOrganization: () => import('./NewOrganizationScreen.tsx'),
  organization: () => import('./organization/OrganizationScreen.tsx'),
  joinOrganization: () => import('./JoinOrganizationScreen.tsx'),
  projectShell: () => import('./project/ProjectShellScreen.tsx'),
  projectHome: () => import('./project/ProjectHomeScreen.tsx'),
  projectSettings: () => import('./project/ProjectSettingsScreen.tsx'),
  newApiToken: () => import('./project/NewApiTokenScreen.tsx'),
  collectionSettings: () => import('./collection/CollectionSettingsScreen.tsx'),
  itemList: () => import('./items/ItemListScreen.tsx'),
  item: () => import('./item/ItemScreen.tsx'),
  projectUsers: () => import('./auth/ProjectUsersScreen.tsx'),
  userGroups: () => import('./auth/UserGroupsScreen.tsx'),
  appUserResetPassword: () => import('./auth/AppUserResetPasswordScreen.tsx'),
  appUserVerifyEmail: () => import('./auth/AppUserVerifyEmailScreen.tsx'),
  studio: () => import('./studio/StudioScreen.tsx'),
  mail: () => import('./mail/MailScreen.tsx'),
  integrations: () => import('./integrations/IntegrationsScreen.tsx'),
  integration: () => import('./integrations/IntegrationScreen.tsx'),
  functions: () => import('./functions/FunctionsScreen.tsx'),
  function: () => import('./functions/FunctionScreen.tsx'),
  webhooks: () => import('./project/webhooks/WebhooksScreen.tsx'),
  webhook: () => import('./project/webhooks/WebhookScreen.tsx'),
  billingComplete: () => import('./BillingCompleteScreen.tsx'),
  adminArea: () => import('./admin/AdminAreaScreen.tsx'),
  adminMetrics: () => import('./admin/AdminMetricsScreen.tsx'),
  adminBilling: () => import('./admin/AdminBillingScreen.tsx'),
  adminOrgSettings: () => import('./admin/AdminOrgSettingsScreen.tsx'),
  adminUsers: () => import('./admin/AdminUsersScreen.tsx'),
  adminAudit: () => import('./admin/AdminAuditScreen.tsx'),
};
