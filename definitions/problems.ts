/**
 * The closed vocabulary of problems the server answers with: each code's HTTP status and the
 * catalogue message the console shows for it. The server's error helpers take only these codes,
 * so a new refusal starts here (docs/errors.md). Status discipline: 401 only for a missing,
 * invalid or expired bearer token; 400 bad input and bad credentials; 403 permission denial;
 * 404 unknown; 409 conflict; 429 throttling.
 */
import type { MessageKey } from './messages/format.ts';

/**
 * One problem: the status it is sent with and the key of its text in `messages/en.json`, which the
 * console shows (src/hooks/use-problem-message.ts). Where the server's English `detail` names
 * specifics (which collection, how long to wait, which limit), the message has ICU placeholders
 * and `params` names them: the server sends their values as the problem's `params`, and its error
 * helpers do not compile without them. `listsErrors: true` marks the codes whose detail is the
 * list of the answer's `errors[]` (which field, what is wrong): the console shows that list.
 */
export interface ProblemDefinition {
  status: number;
  message: MessageKey;
  params?: readonly string[];
  listsErrors?: true;
}

export const problems = {
  account_disabled: { status: 403, message: 'problem.account_disabled' },
  account_not_found: { status: 404, message: 'problem.account_not_found' },
  already_member: { status: 409, message: 'problem.already_member', params: ['emails'] },
  already_verified: { status: 409, message: 'problem.already_verified' },
  bad_request: { status: 400, message: 'problem.bad_request' },
  bad_thumbnail_size: { status: 400, message: 'problem.bad_thumbnail_size' },
  bad_url: { status: 400, message: 'problem.bad_url' },
  billing_address_required: { status: 409, message: 'problem.billing_address_required' },
  billing_blocked: { status: 402, message: 'problem.billing_blocked' },
  billing_date_out_of_range: { status: 400, message: 'problem.billing_date_out_of_range', params: ['earliest', 'latest'] },
  billing_details_required: { status: 409, message: 'problem.billing_details_required' },
  billing_disabled: { status: 404, message: 'problem.billing_disabled' },
  billing_restricted: { status: 403, message: 'problem.billing_restricted' },
  card_required: { status: 409, message: 'problem.card_required' },
  card_session_completed: { status: 409, message: 'problem.card_session_completed' },
  card_session_expired: { status: 409, message: 'problem.card_session_expired' },
  card_session_not_found: { status: 404, message: 'problem.card_session_not_found' },
  card_session_other_organization: { status: 403, message: 'problem.card_session_other_organization' },
  collection_exists: { status: 409, message: 'problem.collection_exists' },
  collection_not_found: { status: 404, message: 'problem.collection_not_found', params: ['collection'] },
  collection_referenced: { status: 409, message: 'problem.collection_referenced', params: ['field', 'collection'] },
  collection_replaced: { status: 401, message: 'problem.collection_replaced' },
  configured_super_admin: { status: 409, message: 'problem.configured_super_admin' },
  confirmation_expired: { status: 400, message: 'problem.confirmation_expired' },
  confirmation_not_found: { status: 404, message: 'problem.confirmation_not_found' },
  country_unknown: { status: 400, message: 'problem.country_unknown', params: ['country'] },
  database_unavailable: { status: 503, message: 'problem.database_unavailable' },
  empty_file: { status: 400, message: 'problem.empty_file' },
  field_not_found: { status: 404, message: 'problem.field_not_found' },
  file_not_found: { status: 404, message: 'problem.file_not_found' },
  file_too_large: { status: 413, message: 'problem.file_too_large' },
  geocoder_unavailable: { status: 503, message: 'problem.geocoder_unavailable' },
  group_exceeds_permissions: { status: 403, message: 'problem.group_exceeds_permissions', params: ['rights'] },
  group_id_mismatch: { status: 400, message: 'problem.group_id_mismatch' },
  group_id_required: { status: 400, message: 'problem.group_id_required' },
  function_busy: { status: 429, message: 'problem.function_busy' },
  function_compile_failed: { status: 400, message: 'problem.function_compile_failed', listsErrors: true },
  function_exists: { status: 409, message: 'problem.function_exists' },
  function_failed: { status: 500, message: 'problem.function_failed', params: ['invocationID'] },
  function_invalid: { status: 400, message: 'problem.function_invalid', listsErrors: true },
  function_limit: { status: 409, message: 'problem.function_limit', params: ['max'] },
  function_not_deployed: { status: 404, message: 'problem.function_not_deployed' },
  function_not_found: { status: 404, message: 'problem.function_not_found' },
  function_timeout: { status: 504, message: 'problem.function_timeout', params: ['invocationID'] },
  function_version_not_found: { status: 404, message: 'problem.function_version_not_found' },
  function_secret_not_found: { status: 404, message: 'problem.function_secret_not_found' },
  group_name_required: { status: 400, message: 'problem.group_name_required' },
  group_name_too_long: { status: 400, message: 'problem.group_name_too_long', params: ['max'] },
  headers_too_large: { status: 431, message: 'problem.headers_too_large' },
  image_not_found: { status: 404, message: 'problem.image_not_found' },
  insufficient_permissions: { status: 403, message: 'problem.insufficient_permissions' },
  import_refused: { status: 422, message: 'problem.import_refused', listsErrors: true },
  integration_invalid: { status: 400, message: 'problem.integration_invalid', listsErrors: true },
  integration_limit: { status: 409, message: 'problem.integration_limit', params: ['max'] },
  integration_not_found: { status: 404, message: 'problem.integration_not_found' },
  internal: { status: 500, message: 'problem.internal' },
  invalid_body: { status: 400, message: 'problem.invalid_body' },
  invalid_client: { status: 400, message: 'problem.invalid_client' },
  invalid_email: { status: 400, message: 'problem.invalid_email' },
  invalid_grant: { status: 400, message: 'problem.invalid_grant' },
  invalid_json: { status: 400, message: 'problem.invalid_json' },
  invalid_phone: { status: 400, message: 'problem.invalid_phone' },
  invalid_query: { status: 400, message: 'problem.invalid_query' },
  invalid_refresh_token: { status: 401, message: 'problem.invalid_refresh_token' },
  invalid_regex: { status: 400, message: 'problem.invalid_regex' },
  invalid_request: { status: 400, message: 'problem.invalid_request' },
  invalid_reset_token: { status: 400, message: 'problem.invalid_reset_token' },
  invalid_role: { status: 400, message: 'problem.invalid_role' },
  invalid_text: { status: 400, message: 'problem.invalid_text' },
  invalid_third_party_token: { status: 400, message: 'problem.invalid_third_party_token' },
  invalid_token: { status: 401, message: 'problem.invalid_token' },
  invalid_url: { status: 400, message: 'problem.invalid_url' },
  invalid_user_id: { status: 400, message: 'problem.invalid_user_id' },
  invalid_verification_token: { status: 400, message: 'problem.invalid_verification_token' },
  invalid_webhook: { status: 400, message: 'problem.invalid_webhook', listsErrors: true },
  invite_not_found: { status: 404, message: 'problem.invite_not_found' },
  invite_other_email: { status: 403, message: 'problem.invite_other_email' },
  invoice_not_found: { status: 404, message: 'problem.invoice_not_found' },
  item_id_taken: { status: 409, message: 'problem.item_id_taken' },
  item_not_found: { status: 404, message: 'problem.item_not_found' },
  mail_address_invalid: { status: 400, message: 'problem.mail_address_invalid', listsErrors: true },
  mail_not_found: { status: 404, message: 'problem.mail_not_found' },
  mail_smtp_url_invalid: { status: 400, message: 'problem.mail_smtp_url_invalid', listsErrors: true },
  mail_template_invalid: { status: 400, message: 'problem.mail_template_invalid', listsErrors: true },
  malformed_json: { status: 400, message: 'problem.malformed_json' },
  member_not_found: { status: 404, message: 'problem.member_not_found' },
  metadata_field: { status: 400, message: 'problem.metadata_field' },
  method_not_allowed: { status: 405, message: 'problem.method_not_allowed' },
  missing_token: { status: 401, message: 'problem.missing_token' },
  multipart_expected: { status: 415, message: 'problem.multipart_expected' },
  nested_collection_not_found: { status: 404, message: 'problem.nested_collection_not_found' },
  no_seats: { status: 409, message: 'problem.no_seats' },
  not_a_member: { status: 403, message: 'problem.not_a_member' },
  not_an_image: { status: 400, message: 'problem.not_an_image' },
  not_associated: { status: 403, message: 'problem.not_associated' },
  not_found: { status: 404, message: 'problem.not_found' },
  not_ready: { status: 503, message: 'problem.not_ready' },
  not_permitted: { status: 403, message: 'problem.not_permitted' },
  not_self: { status: 403, message: 'problem.not_self' },
  not_self_admin: { status: 409, message: 'problem.not_self_admin' },
  operator_not_allowed: { status: 400, message: 'problem.operator_not_allowed' },
  ordering_failed: { status: 409, message: 'problem.ordering_failed' },
  organization_not_found: { status: 404, message: 'problem.organization_not_found' },
  otp_expired: { status: 400, message: 'problem.otp_expired' },
  otp_resend_limit: { status: 400, message: 'problem.otp_resend_limit' },
  payload_too_large: { status: 413, message: 'problem.payload_too_large' },
  payment_declined: { status: 402, message: 'problem.payment_declined' },
  payment_provider_unavailable: { status: 503, message: 'problem.payment_provider_unavailable' },
  place_not_found: { status: 404, message: 'problem.place_not_found' },
  plan_not_found: { status: 400, message: 'problem.plan_not_found', params: ['planID'] },
  preview_refused: { status: 422, message: 'problem.preview_refused' },
  preview_timeout: { status: 504, message: 'problem.preview_timeout' },
  preview_unreachable: { status: 502, message: 'problem.preview_unreachable' },
  project_not_found: { status: 404, message: 'problem.project_not_found' },
  project_user_not_found: { status: 404, message: 'problem.project_user_not_found' },
  provider_signature_invalid: { status: 400, message: 'problem.provider_signature_invalid' },
  query_timeout: { status: 400, message: 'problem.query_timeout' },
  rate_limited: { status: 429, message: 'problem.rate_limited', params: ['seconds'] },
  request_timeout: { status: 408, message: 'problem.request_timeout' },
  restricted_view: { status: 403, message: 'problem.restricted_view' },
  same_plan: { status: 409, message: 'problem.same_plan' },
  search_too_long: { status: 400, message: 'problem.search_too_long', params: ['max'] },
  search_too_short: { status: 400, message: 'problem.search_too_short', params: ['min'] },
  session_revoked: { status: 401, message: 'problem.session_revoked' },
  single_item_exists: { status: 409, message: 'problem.single_item_exists' },
  single_item_too_many: { status: 409, message: 'problem.single_item_too_many' },
  stale_item: { status: 409, message: 'problem.stale_item' },
  storage_full: { status: 507, message: 'problem.storage_full' },
  studio_token_not_allowed: { status: 403, message: 'problem.studio_token_not_allowed' },
  super_admin_required: { status: 403, message: 'problem.super_admin_required' },
  template_not_found: { status: 400, message: 'problem.template_not_found' },
  third_party_disabled: { status: 404, message: 'problem.third_party_disabled' },
  third_party_unavailable: { status: 503, message: 'problem.third_party_unavailable' },
  token_exceeds_permissions: { status: 403, message: 'problem.token_exceeds_permissions', params: ['rights'] },
  token_expired: { status: 401, message: 'problem.token_expired' },
  token_not_found: { status: 404, message: 'problem.token_not_found' },
  too_many_parts: { status: 400, message: 'problem.too_many_parts' },
  type_mismatch: { status: 415, message: 'problem.type_mismatch' },
  type_not_accepted: { status: 415, message: 'problem.type_not_accepted' },
  unknown_collection: { status: 400, message: 'problem.unknown_collection', params: ['collections'] },
  unknown_field: { status: 400, message: 'problem.unknown_field' },
  unknown_project_user: { status: 400, message: 'problem.unknown_project_user', params: ['users'] },
  unknown_user_group: { status: 400, message: 'problem.unknown_user_group', params: ['groups'] },
  unreadable_image: { status: 400, message: 'problem.unreadable_image' },
  unsupported_grant_type: { status: 400, message: 'problem.unsupported_grant_type', params: ['grantType'] },
  unsupported_media_type: { status: 415, message: 'problem.unsupported_media_type' },
  unsupported_stage: { status: 400, message: 'problem.unsupported_stage' },
  uri_too_long: { status: 414, message: 'problem.uri_too_long' },
  usage_limit: { status: 429, message: 'problem.usage_limit', params: ['metric', 'limit'] },
  user_admin_required: { status: 403, message: 'problem.user_admin_required' },
  user_exists: { status: 409, message: 'problem.user_exists' },
  user_group_exists: { status: 409, message: 'problem.user_group_exists', params: ['name'] },
  user_group_not_found: { status: 404, message: 'problem.user_group_not_found' },
  user_not_found: { status: 404, message: 'problem.user_not_found' },
  user_token_required: { status: 403, message: 'problem.user_token_required' },
  username_reserved: { status: 409, message: 'problem.username_reserved' },
  username_taken: { status: 409, message: 'problem.username_taken' },
  validation_failed: { status: 400, message: 'problem.validation_failed', listsErrors: true },
  webhook_delivery_not_found: { status: 404, message: 'problem.webhook_delivery_not_found' },
  webhook_not_found: { status: 404, message: 'problem.webhook_not_found' },
  wrong_otp: { status: 400, message: 'problem.wrong_otp' },
} as const satisfies Record<string, ProblemDefinition>;

/** A code the server may send. */
export type ProblemCode = keyof typeof problems;

/** The codes sent with HTTP status `S`. */
export type ProblemCodeOf<S extends number> = { [C in ProblemCode]: (typeof problems)[C]['status'] extends S ? C : never }[ProblemCode];

type ParamNames<C extends ProblemCode> = (typeof problems)[C] extends { params: readonly (infer N extends string)[] } ? N : never;

/** The values of code `C`'s message, by placeholder. */
export type ProblemParamsOf<C extends ProblemCode> = Record<ParamNames<C>, string | number>;

/** The arguments after the detail of a server error helper: the message's values where it has placeholders, else none. */
export type ProblemParamsArg<C extends ProblemCode> = [ParamNames<C>] extends [never] ? [] : [params: ProblemParamsOf<C>];

/** True when `code` is one of the server's problem codes. */
export const isProblemCode = (code: string): code is ProblemCode => Object.prototype.hasOwnProperty.call(problems, code);
