/** The audit log's words for its actions and target kinds (definitions/admin.ts). */
import type { AuditAction, AuditTargetKind } from '../../../../definitions/admin.ts';
import type { MessageKey } from '../../../../definitions/messages/format.ts';

export const auditActionLabels: Record<AuditAction, MessageKey> = {
  'user.disable': 'admin.audit.action.userDisable',
  'user.enable': 'admin.audit.action.userEnable',
  'user.grantSuperAdmin': 'admin.audit.action.userGrantSuperAdmin',
  'user.revokeSuperAdmin': 'admin.audit.action.userRevokeSuperAdmin',
  'user.resendVerification': 'admin.audit.action.userResendVerification',
  'user.create': 'admin.audit.action.userCreate',
  'user.resetPassword': 'admin.audit.action.userResetPassword',
  'organization.addCredit': 'admin.audit.action.organizationAddCredit',
  'organization.addAddOn': 'admin.audit.action.organizationAddAddOn',
  'organization.replaceAddOns': 'admin.audit.action.organizationReplaceAddOns',
  'organization.setBillingDate': 'admin.audit.action.organizationSetBillingDate',
  'organization.setPlan': 'admin.audit.action.organizationSetPlan',
  'softLaunch.set': 'admin.audit.action.softLaunchSet',
  'softLaunch.setWhitelist': 'admin.audit.action.softLaunchSetWhitelist',
  'installation.migrate': 'admin.audit.action.installationMigrate',
  'installation.backup': 'admin.audit.action.installationBackup',
  'installation.restore': 'admin.audit.action.installationRestore',
  'project.export': 'admin.audit.action.projectExport',
  'project.import': 'admin.audit.action.projectImport',
};

export const auditTargetLabels: Record<AuditTargetKind, MessageKey> = {
  user: 'admin.audit.target.user',
  organization: 'admin.audit.target.organization',
  softLaunch: 'admin.audit.target.softLaunch',
  installation: 'admin.audit.target.installation',
  project: 'admin.audit.target.project',
};
