/**
 * TanStack Query hooks over the billing calls (src/api/billing.ts): thin wrappers, keys in
 * `billingKeys`. Amounts stay integers in minor units; screens format them with `formatMoney`.
 */
import { createContext, useContext } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getBillingApi, type BillingApi, type BillingDetails, type BillingDetailsInput } from './billing.ts';
import { isApiError } from './errors.ts';
import { shouldRetry } from './queries.ts';

export const billingKeys = {
  all: ['billing'] as const,
  plans: ['billing', 'plans'] as const,
  organization: (organizationID: string) => ['billing', 'organization', organizationID] as const,
  details: (organizationID: string) => ['billing', 'organization', organizationID, 'details'] as const,
  summary: (organizationID: string, country: string, planID: string) => ['billing', 'organization', organizationID, 'summary', country, planID] as const,
  transactions: (organizationID: string) => ['billing', 'organization', organizationID, 'transactions'] as const,
  cardLink: (organizationID: string, planID: string | null) => ['billing', 'organization', organizationID, 'cardLink', planID] as const,
  usage: (organizationID: string, month: string | null) => ['billing', 'organization', organizationID, 'usage', month] as const,
  statusWindows: ['billing', 'statusWindows'] as const,
};

const BillingApiContext = createContext<BillingApi | null>(null);

/** Overrides the billing calls for a subtree (tests); without it the page's client is used. */
export const BillingApiProvider = BillingApiContext.Provider;

export function useBillingApi(): BillingApi {
  return useContext(BillingApiContext) ?? getBillingApi();
}

/** A billing answer changed the account: its details, summaries, card links and usage are stale. */
export function invalidateBilling(queryClient: QueryClient, organizationID: string) {
  return queryClient.invalidateQueries({ queryKey: billingKeys.organization(organizationID) });
}

function keepDetails(queryClient: QueryClient, organizationID: string, details: BillingDetails) {
  queryClient.setQueryData(billingKeys.details(organizationID), details);
  void invalidateBilling(queryClient, organizationID);
}

/**
 * The organization's billing account. One not made yet (GET answers 404), or made without a
 * billing e-mail, is completed from the organization on first read (POST
 * billingDetails/organizationDetails: the account, and the reader's e-mail as billing e-mail
 * where none is set).
 */
export async function readOrEnsureDetails(api: BillingApi, organizationID: string): Promise<BillingDetails> {
  let details: BillingDetails;
  try {
    details = await api.details(organizationID);
  } catch (error) {
    if (isApiError(error) && error.status === 404 && error.code !== 'billing_disabled') return api.ensureDetails(organizationID);
    throw error;
  }
  return details.billingEmail ? details : api.ensureDetails(organizationID);
}

export function useBillingDetails(organizationID: string, options: { enabled?: boolean } = {}) {
  const api = useBillingApi();
  return useQuery({
    queryKey: billingKeys.details(organizationID),
    queryFn: () => readOrEnsureDetails(api, organizationID),
    enabled: options.enabled ?? true,
    retry: shouldRetry,
  });
}

export function usePlans() {
  const api = useBillingApi();
  return useQuery({ queryKey: billingKeys.plans, queryFn: () => api.plans(), staleTime: 5 * 60_000, retry: shouldRetry });
}

/**
 * The summary of what the plan costs for an address in `country`; off until both are known.
 * Recalculated whenever a screen showing it mounts (the Setup Credit Card dialog opens) and when
 * the country or plan changes (a new key).
 */
export function useBillingSummary(organizationID: string, query: { country?: string | null; planID?: string | null }, options: { enabled?: boolean } = {}) {
  const api = useBillingApi();
  const country = query.country ?? '';
  const planID = query.planID ?? '';
  return useQuery({
    queryKey: billingKeys.summary(organizationID, country, planID),
    queryFn: () => api.summary(organizationID, { country, planID }),
    enabled: (options.enabled ?? true) && country !== '' && planID !== '',
    refetchOnMount: 'always',
    retry: shouldRetry,
  });
}

export function useTransactions(organizationID: string, options: { enabled?: boolean } = {}) {
  const api = useBillingApi();
  return useQuery({
    queryKey: billingKeys.transactions(organizationID),
    queryFn: () => api.transactions(organizationID),
    enabled: options.enabled ?? true,
    retry: shouldRetry,
  });
}

export function useBillingUsage(organizationID: string, month?: string, options: { enabled?: boolean } = {}) {
  const api = useBillingApi();
  return useQuery({
    queryKey: billingKeys.usage(organizationID, month ?? null),
    queryFn: () => api.usage(organizationID, month),
    enabled: options.enabled ?? true,
    retry: shouldRetry,
  });
}

export function useBillingStatusWindows(options: { enabled?: boolean } = {}) {
  const api = useBillingApi();
  return useQuery({ queryKey: billingKeys.statusWindows, queryFn: () => api.statusWindows(), staleTime: Infinity, enabled: options.enabled ?? true, retry: shouldRetry });
}

/**
 * The card provider's page for this organization (and the plan being bought). Each link opens a
 * new card session on the server, so it is read once per mount: never refetched in the
 * background, dropped as soon as no dialog shows it (the next opening asks for a fresh one).
 */
export function useCardLink(organizationID: string, planID?: string | null, options: { enabled?: boolean } = {}) {
  const api = useBillingApi();
  return useQuery({
    queryKey: billingKeys.cardLink(organizationID, planID ?? null),
    queryFn: () => api.cardLink(organizationID, planID ?? undefined),
    enabled: options.enabled ?? true,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: shouldRetry,
  });
}

export function useSaveBillingDetails(organizationID: string) {
  const api = useBillingApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BillingDetailsInput) => api.saveDetails(organizationID, input),
    onSuccess: (details) => keepDetails(queryClient, organizationID, details),
  });
}

export function useChangePlan(organizationID: string) {
  const api = useBillingApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (planID: string) => api.changePlan(organizationID, planID),
    onSuccess: (details) => keepDetails(queryClient, organizationID, details),
  });
}

export function useContactUs(organizationID: string) {
  const api = useBillingApi();
  return useMutation({ mutationFn: (input: Parameters<BillingApi['contactUs']>[1]) => api.contactUs(organizationID, input) });
}

/** Confirms a card session after the provider's page (/billingComplete); the account's billing is stale after. */
export function useCompleteCard() {
  const api = useBillingApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionID: string) => api.completeCard(sessionID),
    onSuccess: (session) => invalidateBilling(queryClient, session.organizationID),
  });
}

/** The invoice PDF of a transaction, as a Blob. */
/** A card session's state (polled by the card dialog while its page is open, to learn it completed). */
export function useCardSession(sessionID: string | null | undefined, options: { refetchInterval?: number | false } = {}) {
  const api = useBillingApi();
  return useQuery({
    queryKey: ['billing', 'cardSession', sessionID ?? ''] as const,
    queryFn: () => api.cardSession(sessionID ?? ''),
    enabled: Boolean(sessionID),
    refetchInterval: options.refetchInterval ?? false,
    gcTime: 0,
    retry: shouldRetry,
  });
}

export function useDownloadInvoice(organizationID: string) {
  const api = useBillingApi();
  return useMutation({ mutationFn: (invoiceID: string) => api.invoice(organizationID, invoiceID) });
}
