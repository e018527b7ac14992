/**
 * Layout settings as the layouts use them: the stored settings minus what no longer fits the
 * schema (a deleted field or a changed type means "choose a field").
 * The rules live in definitions/layout-settings.ts, shared with the server's checks.
 */
export { fittingFields, validLayoutSettings } from '../../definitions/layout-settings.ts';
