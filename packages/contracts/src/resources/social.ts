import { defineResource } from "../resource/types.ts";

const URL_PATTERN = { regex: "^https?://[^\\s]+$", message: "url" } as const;

/**
 * A tenant's third-party sign-in providers (issue 19): generic OpenID Connect (discovered from its
 * issuer), GitHub, Gitee and the two WeChat kinds. The client secret is stored encrypted and
 * answered masked. The redirect URI is the exact one registered at the provider; sign-in never
 * takes it from a request. For GitHub and Gitee a base address (GitHub Enterprise, a test double)
 * may stand in for the public one in `issuer`.
 */
export const socialProvider = defineResource({
  name: "socialProvider",
  menuCode: "social_provider",
  table: "blade_social_provider",
  service: "blade-system",
  path: "social-provider",
  listVerb: "list",
  tenantScoped: true,
  // Each tenant signs in through its own providers, the platform's administrator included.
  tenantStrict: true,
  guard: "admin",
  softDelete: true,
  audit: true,
  fields: {
    /** Several rows of one source may be kept (one enabled, others prepared); the first enabled serves. */
    source: { type: "string", required: true, maxLength: 16, dict: "social_source", search: "equal" },
    displayName: { type: "string", required: true, maxLength: 64, search: "like" },
    /** An image address shown on the login button; blank shows the source's own mark. */
    icon: { type: "string", maxLength: 500, list: false, pattern: URL_PATTERN },
    clientId: { type: "string", required: true, maxLength: 255 },
    clientSecret: { type: "string", required: true, maxLength: 255, encrypted: true, list: false },
    issuer: { type: "string", maxLength: 500, list: false, span: 24, pattern: URL_PATTERN },
    /** Blank: the source's usual ones (OIDC openid profile email, GitHub read:user user:email …). */
    scopes: { type: "string", maxLength: 255, list: false },
    redirectUri: { type: "string", required: true, maxLength: 500, span: 24, pattern: URL_PATTERN },
    /** 1: shown on the login page and accepted; 0: refused at once. */
    enabled: { type: "int", required: true, dict: "yes_no", default: 1, search: "equal" },
    /** Join a sign-in to the tenant's user with the same e-mail, when the provider says it is verified. */
    joinByEmail: { type: "int", required: true, dict: "yes_no", default: 0, list: false },
  },
  sort: [{ field: "id" }],
});
