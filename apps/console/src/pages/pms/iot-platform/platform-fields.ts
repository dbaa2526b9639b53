import type { MessageKey } from "../../../i18n/index.tsx";
import type { Platform } from "./iot-calls.ts";

export type ConfigField = "baseUrl" | "authUrl" | "appId" | "account" | "appSecret" | "pushToken";

/** One input of a platform's card: what the platform calls it, and whether it must be given. */
export interface FieldSpec {
  name: ConfigField;
  label: MessageKey;
  required: boolean;
  secret?: boolean;
  placeholder?: string;
  help?: MessageKey;
}

/**
 * What each platform's console calls the values the server stores in its generic columns (see
 * the server's platform-clients.ts): CTWing signs with App Key/Secret and sends commands with the
 * MasterKey for a product; OneNET's product id and access key, and the token it signs pushes with;
 * IoTDA's project id, an IAM user and password, and the token of its forwarding rule's URL.
 */
export const PLATFORM_FIELDS: Record<Platform, FieldSpec[]> = {
  ctwing: [
    {
      name: "baseUrl",
      label: "iotPlatform.ctwing.baseUrl",
      required: true,
      placeholder: "https://ag-api.ctwing.cn",
    },
    { name: "appId", label: "iotPlatform.ctwing.appId", required: true },
    { name: "appSecret", label: "iotPlatform.ctwing.appSecret", required: true, secret: true },
    { name: "pushToken", label: "iotPlatform.ctwing.pushToken", required: true, secret: true },
    {
      name: "account",
      label: "iotPlatform.ctwing.account",
      required: true,
      help: "iotPlatform.ctwing.accountHelp",
    },
  ],
  onenet: [
    {
      name: "baseUrl",
      label: "iotPlatform.onenet.baseUrl",
      required: true,
      placeholder: "https://api.heclouds.com",
    },
    { name: "appId", label: "iotPlatform.onenet.appId", required: true },
    { name: "appSecret", label: "iotPlatform.onenet.appSecret", required: true, secret: true },
    { name: "pushToken", label: "iotPlatform.onenet.pushToken", required: true, secret: true },
  ],
  iotda: [
    {
      name: "baseUrl",
      label: "iotPlatform.iotda.baseUrl",
      required: true,
      placeholder: "https://iotda.cn-north-4.myhuaweicloud.com",
    },
    {
      name: "authUrl",
      label: "iotPlatform.iotda.authUrl",
      required: true,
      placeholder: "https://iam.cn-north-4.myhuaweicloud.com",
    },
    { name: "appId", label: "iotPlatform.iotda.appId", required: true },
    {
      name: "account",
      label: "iotPlatform.iotda.account",
      required: true,
      help: "iotPlatform.iotda.accountHelp",
    },
    { name: "appSecret", label: "iotPlatform.iotda.appSecret", required: true, secret: true },
    { name: "pushToken", label: "iotPlatform.iotda.pushToken", required: true, secret: true },
  ],
};
