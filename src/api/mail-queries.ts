/**
 * TanStack Query hooks over the Mail calls (src/api/mail.ts): thin wrappers, keys in `mailKeys`.
 * A saved template or settings change refreshes what shows it; a resend refreshes the log.
 */
import { createContext, useContext } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailTemplateKind } from '../../definitions/mail.ts';
import { getMailApi, type MailApi, type MailLogQuery, type MailScope, type MailSettingsInput, type MailTemplateInput } from './mail.ts';
import { shouldRetry } from './queries.ts';

export const mailKeys = {
  all: (scope: MailScope) => ['mail', scope.organizationID, scope.projectID] as const,
  templates: (scope: MailScope) => ['mail', scope.organizationID, scope.projectID, 'templates'] as const,
  settings: (scope: MailScope) => ['mail', scope.organizationID, scope.projectID, 'settings'] as const,
  logs: (scope: MailScope) => ['mail', scope.organizationID, scope.projectID, 'log'] as const,
  log: (scope: MailScope, query: MailLogQuery) => ['mail', scope.organizationID, scope.projectID, 'log', query] as const,
  mail: (scope: MailScope, mailID: string) => ['mail', scope.organizationID, scope.projectID, 'mail', mailID] as const,
};

const MailApiContext = createContext<MailApi | null>(null);

/** Overrides the Mail calls for a subtree (tests); without it the page's client is used. */
export const MailApiProvider = MailApiContext.Provider;

export function useMailApi(): MailApi {
  return useContext(MailApiContext) ?? getMailApi();
}

export function useMailTemplates(scope: MailScope) {
  const api = useMailApi();
  return useQuery({ queryKey: mailKeys.templates(scope), queryFn: () => api.templates(scope), retry: shouldRetry });
}

export function useSaveMailTemplate(scope: MailScope) {
  const api = useMailApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, input }: { kind: MailTemplateKind; input: MailTemplateInput }) => api.saveTemplate(scope, kind, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailKeys.templates(scope) }),
  });
}

export function useResetMailTemplate(scope: MailScope) {
  const api = useMailApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kind: MailTemplateKind) => api.resetTemplate(scope, kind),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailKeys.templates(scope) }),
  });
}

export function useSendTestMail(scope: MailScope) {
  const api = useMailApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, draft }: { kind: MailTemplateKind; draft: MailTemplateInput }) => api.sendTest(scope, kind, draft),
    // The test mail is in the log too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailKeys.logs(scope) }),
  });
}

export function useMailSettings(scope: MailScope) {
  const api = useMailApi();
  return useQuery({ queryKey: mailKeys.settings(scope), queryFn: () => api.settings(scope), retry: shouldRetry });
}

export function useSaveMailSettings(scope: MailScope) {
  const api = useMailApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MailSettingsInput) => api.saveSettings(scope, input),
    onSuccess: (settings) => queryClient.setQueryData(mailKeys.settings(scope), settings),
  });
}

/** A page of the log, polled while a mail on it is still queued (and slowly otherwise). */
export function useMailLog(scope: MailScope, query: MailLogQuery) {
  const api = useMailApi();
  return useQuery({
    queryKey: mailKeys.log(scope, query),
    queryFn: () => api.log(scope, query),
    placeholderData: keepPreviousData,
    retry: shouldRetry,
    refetchInterval: (current) => (current.state.data?.mails.some((mail) => mail.state === 'queued') ? 3000 : 15000),
  });
}

export function useMailDetail(scope: MailScope, mailID: string | null) {
  const api = useMailApi();
  return useQuery({ queryKey: mailKeys.mail(scope, mailID ?? ''), queryFn: () => api.mail(scope, mailID ?? ''), enabled: Boolean(mailID), retry: shouldRetry });
}

export function useResendMail(scope: MailScope) {
  const api = useMailApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mailID: string) => api.resend(scope, mailID),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailKeys.all(scope) }),
  });
}

export function useVerifyAppUserEmail() {
  const api = useMailApi();
  return useMutation({ mutationFn: (verifyID: string) => api.verifyEmail(verifyID) });
}
