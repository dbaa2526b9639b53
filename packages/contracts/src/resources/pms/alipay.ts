import { defineResource } from "../../resource/types.ts";
import { registryBase, remarkField } from "./base.ts";

/**
 * A tenant's Alipay application (open platform, RSA2 public-key mode). The application private key
 * is stored encrypted and answered masked; Alipay's public key verifies its answers and
 * notifications. The environment picks Alipay's sandbox or production gateway; a gateway URL, when
 * given, stands in for both (a local double).
 */
const URL_PATTERN = { regex: "^https?://[^\\s]+$", message: "url" };

export const alipayConfig = defineResource({
  name: "alipayConfig",
  table: "pms_alipay_config",
  ...registryBase,
  path: "alipayconfig",
  listVerb: "list",
  fields: {
    appId: {
      type: "string",
      required: true,
      maxLength: 32,
      search: "like",
      unique: true,
      pattern: { regex: "^\\d{16}$", message: "alipayAppId" },
    },
    environment: {
      type: "string",
      required: true,
      maxLength: 16,
      dict: "alipay_gateway",
      default: "sandbox",
    },
    privateKey: { type: "text", maxLength: 4000, encrypted: true, list: false, span: 24 },
    alipayPublicKey: { type: "text", maxLength: 4000, list: false, span: 24 },
    gatewayUrl: { type: "string", maxLength: 255, list: false, span: 24, pattern: URL_PATTERN },
    notifyUrl: { type: "string", maxLength: 255, list: false, span: 24, pattern: URL_PATTERN },
    maxAmount: { type: "decimal", scale: 2, list: false },
    enabled: { type: "int", required: true, dictBiz: "YES_NO", default: 1 },
    remark: remarkField,
  },
});
