export type { GrantKeys, GrantTrees, RoleGrant, TopMenuGrant } from "./access.ts";
export type { GuestRegistration, LoginParams, PlainAck, SocialReturn } from "./auth.ts";
export { type ApiClient, type ApiClientOptions, createApiClient } from "./client.ts";
export { crudApi, type DictionaryItem, exportUrl, type Row } from "./crud.ts";
export {
  ApiError,
  type ApiErrorKind,
  isApiError,
  messageOf,
  serverMessageOf,
  UNKNOWN_ERROR,
} from "./errors.ts";
export type { RequestOptions } from "./http.ts";
export type { OwnProfile, StoredFile } from "./profile.ts";
export { compactFilters, encodeQuery, type QueryParams, type QueryValue, withQuery } from "./query.ts";
export { type PageParams, resourcePath } from "./resource.ts";
export type { HealthInfo } from "./system.ts";
