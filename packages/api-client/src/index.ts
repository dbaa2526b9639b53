export type { GuestRegistration, LoginParams, PlainAck } from "./auth.ts";
export { type ApiClient, type ApiClientOptions, createApiClient } from "./client.ts";
export {
  ApiError,
  type ApiErrorKind,
  isApiError,
  messageOf,
  serverMessageOf,
  UNKNOWN_ERROR,
} from "./errors.ts";
export type { RequestOptions } from "./http.ts";
export { compactFilters, encodeQuery, type QueryParams, type QueryValue, withQuery } from "./query.ts";
export { type PageParams, resourcePath } from "./resource.ts";
export type { HealthInfo } from "./system.ts";
