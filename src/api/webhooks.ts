/**
 * The webhook calls (docs/webhooks.md) and their TanStack Query hooks. A
 * change refreshes the project too, whose `webhooks` list feeds the shell's menu.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedWebhook, Webhook, WebhookLogEntry } from '../../definitions/schemas/webhook.ts';
import type { WebhookMethod, WebhookTrigger } from '../../definitions/webhooks.ts';
import { getApiClient } from './client.ts';
import { platformKeys } from './platform-queries.ts';
import { shouldRetry } from './queries.ts';

export interface WebhookDraft {
  name: string;
  webhookURI: string;
  method: WebhookMethod | '';
  trigger: WebhookTrigger;
  collections: string[];
}

export type { CreatedWebhook, Webhook, WebhookLogEntry };

const seg = encodeURIComponent;

export const webhookApi = {
  list: (organizationID: string, projectID: string) => getApiClient().json<Webhook[]>('api/webhook', { searchParams: { organizationID, projectID } }),
  create: (organizationID: string, projectID: string, draft: WebhookDraft) =>
    getApiClient().json<CreatedWebhook>('api/webhook', { method: 'post', json: { ...draft, organizationID, projectID } }),
  update: (id: string, draft: WebhookDraft & { enabled?: boolean }) => getApiClient().json<Webhook>(`api/webhook/${seg(id)}`, { method: 'put', json: draft }),
  remove: (id: string) => getApiClient().json<void>(`api/webhook/${seg(id)}`, { method: 'delete' }),
  logs: (id: string) => getApiClient().json<WebhookLogEntry[]>(`api/webhook/${seg(id)}/logs`),
  redeliver: (id: string, deliveryID: string) => getApiClient().json<{ deliveryID: string }>(`api/webhook/${seg(id)}/logs/${seg(deliveryID)}/redeliver`, { method: 'post' }),
};

export const webhookKeys = {
  list: (organizationID: string, projectID: string) => ['webhooks', organizationID, projectID] as const,
  logs: (id: string) => ['webhookLogs', id] as const,
};

export function useWebhooks(organizationID: string, projectID: string) {
  return useQuery({ queryKey: webhookKeys.list(organizationID, projectID), queryFn: () => webhookApi.list(organizationID, projectID), retry: shouldRetry });
}

/** The log, polled while a delivery still has an attempt due (and slowly otherwise). */
export function useWebhookLogs(id: string) {
  return useQuery({
    queryKey: webhookKeys.logs(id),
    queryFn: () => webhookApi.logs(id),
    retry: shouldRetry,
    enabled: id !== '',
    refetchInterval: (query) => (query.state.data?.some((entry) => entry.state === 'pending') ? 2000 : 5000),
  });
}

function useRefresh(organizationID: string, projectID: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: webhookKeys.list(organizationID, projectID) }),
      queryClient.invalidateQueries({ queryKey: platformKeys.project(organizationID, projectID) }),
    ]);
}

export function useCreateWebhook(organizationID: string, projectID: string) {
  const refresh = useRefresh(organizationID, projectID);
  return useMutation({ mutationFn: (draft: WebhookDraft) => webhookApi.create(organizationID, projectID, draft), onSuccess: () => refresh() });
}

export function useUpdateWebhook(organizationID: string, projectID: string) {
  const refresh = useRefresh(organizationID, projectID);
  return useMutation({
    mutationFn: ({ id, draft }: { id: string; draft: WebhookDraft & { enabled?: boolean } }) => webhookApi.update(id, draft),
    onSuccess: () => refresh(),
  });
}

export function useDeleteWebhook(organizationID: string, projectID: string) {
  const refresh = useRefresh(organizationID, projectID);
  return useMutation({ mutationFn: (id: string) => webhookApi.remove(id), onSuccess: () => refresh() });
}

export function useRedeliver(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryID: string) => webhookApi.redeliver(id, deliveryID),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.logs(id) }),
  });
}
