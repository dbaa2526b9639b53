import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import type { Browser, BrowserContext } from "playwright-core";
import type { WxpayDouble } from "../apps/server/src/modules/wxpay/double/wxpay-double.ts";
import type { SmsDouble } from "../apps/server/test/sms-doubles.ts";

/** Posts one body to `/api/blade-pms/<path>` as the operator and answers the row's id. */
export type PmsPost = (path: string, body: unknown) => Promise<{ id: string }>;

/** What the owner-page tests build on: an area, a DTU and a one-yuan electricity scheme. */
export interface OwnerSite {
  areaId: string;
  collectorId: string;
  schemeId: string;
}

export async function ownerSite(
  pms: PmsPost,
  names: { areaName: string; collectorName: string; collectorCode: string },
): Promise<OwnerSite> {
  const areaId = (await pms("area/save", { areaName: names.areaName, areaType: 1 })).id;
  const schemeId = (
    await pms("chargingscheme/submit", { schemeName: "一元电", energyType: 1, priceMode: 1, price: "1" })
  ).id;
  const collectorId = (
    await pms("collector/submit", { collectorName: names.collectorName, collectorCode: names.collectorCode })
  ).id;
  return { areaId, collectorId, schemeId };
}

/** An owner in a room of the site (a meter there too when `productCode` is given, remote prepaid). */
export async function housedOwner(
  pms: PmsPost,
  site: OwnerSite,
  owner: { ownerName: string; phone: string; roomName: string; productCode?: string },
): Promise<{ ownerId: string; roomId: string; meterId?: string }> {
  const ownerId = (await pms("owner/submit", { ownerName: owner.ownerName, phone: owner.phone })).id;
  const roomId = (await pms("room/save", { areaId: site.areaId, roomName: owner.roomName })).id;
  await pms("ownerroom/submit", { ownerId, roomId });
  if (!owner.productCode) return { ownerId, roomId };
  const meterId = (
    await pms("meter/submit", {
      productCode: owner.productCode,
      collectorId: site.collectorId,
      controlStatus: 1,
      chargingSchemeId: site.schemeId,
    })
  ).id;
  await pms("roommeter/submit", { roomId, energyType: 1, meterId });
  return { ownerId, roomId, meterId };
}

/** Posts to any API path as the operator and answers the envelope's data. */
export type Post = <T = { id: string }>(path: string, body: unknown) => Promise<T>;

/** A WeChat Pay merchant of the local double, as a tenant's wxconfig names it. */
export interface Merchant {
  mchid: string;
  appid: string;
  apiV3Key: string;
}

/**
 * The tenant's owner-page payments: sign-in codes by SMS through the local Aliyun double (its key
 * pair `accessKey`/`secretKey`), and WeChat Pay through the local double, whose merchant is
 * registered here with a fresh key. `oauthUrl` is WeChat's sign-in double, when the suite has one.
 */
export async function enableOwnerPayments(
  post: Post,
  options: {
    tenantId: string;
    baseUrl: string;
    sms: SmsDouble;
    accessKey: string;
    secretKey: string;
    double: WxpayDouble;
    merchant: Merchant;
    appSecret: string;
    oauthUrl?: string;
    maxAmount: string;
  },
): Promise<void> {
  const setting = await post("/api/blade-resource/sms/submit", {
    category: 3,
    smsCode: "code",
    templateId: "SMS_CODE",
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    signName: "业主服务",
    endpoint: options.sms.url,
  });
  await post("/api/blade-resource/sms/enable", { id: setting.id });
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  options.double.addMerchant({
    ...options.merchant,
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  });
  await post("/api/blade-pms/wxconfig/submit", {
    appId: options.merchant.appid,
    appSecret: options.appSecret,
    ...(options.oauthUrl ? { oauthUrl: options.oauthUrl } : {}),
    mchId: options.merchant.mchid,
    apiV3Key: options.merchant.apiV3Key,
    certSerialNo: `E2E${options.merchant.mchid.padStart(37, "0")}`,
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    notifyUrl: `${options.baseUrl}/api/blade-pms/wxpay/notify/${options.tenantId}`,
    platformSerialNo: options.double.platformSerial,
    platformPublicKey: options.double.platformPublicKey,
    apiBase: options.double.base,
    maxAmount: options.maxAmount,
    enabled: 1,
  });
}

/** The last sign-in code sent to `phone` (an owner in arrears may have been sent a balance alarm since). */
export function lastCode(sms: SmsDouble, phone: string): string {
  const message = sms.received
    .filter((m) => m.phones.includes(phone) && (m.params as Record<string, string>).code)
    .at(-1);
  assert.ok(message, `an SMS reached ${phone}`);
  return (message.params as Record<string, string>).code ?? "";
}

export const PHONE_BROWSER =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";

/** A phone's browser: 390 × 844, touch, Chinese locale, no animations. */
export async function phoneContext(
  browser: Browser,
  baseUrl: string,
  userAgent = PHONE_BROWSER,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "zh-CN",
    reducedMotion: "reduce",
    userAgent,
  });
  context.setDefaultTimeout(15_000);
  return context;
}

/** An owner whose meter is a simulated one, in a building of a park where arrears cut supply. */
export interface ArrearsOwner {
  ownerName: string;
  phone: string;
  roomName: string;
  /** The simulated meter's address, also its number in the registry. */
  address: string;
  meterId: string;
}

/**
 * A park with 2号楼, one collector for the simulated DTU, a one-yuan price and an alarm scheme that
 * cuts supply 10.00 below zero, and each owner in a room of 2号楼 with a remote-control meter.
 */
export async function arrearsSite(
  post: Post,
  collector: { code: string; secret: string },
  owners: readonly Omit<ArrearsOwner, "meterId">[],
): Promise<ArrearsOwner[]> {
  const park = (await post("/api/blade-pms/area/save", { areaName: "复电园区", areaType: 1 })).id;
  const building = (await post("/api/blade-pms/area/save", { parentId: park, areaName: "2号楼" })).id;
  const collectorId = (
    await post("/api/blade-pms/collector/submit", {
      collectorName: "复电DTU",
      collectorCode: collector.code,
      registrationSecret: collector.secret,
    })
  ).id;
  const price = (
    await post("/api/blade-pms/chargingscheme/submit", {
      schemeName: "复电电价",
      energyType: 1,
      priceMode: 1,
      price: "1",
    })
  ).id;
  const alarm = (
    await post("/api/blade-pms/alarmscheme/submit", {
      schemeName: "欠费断电",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 1,
    })
  ).id;
  const made: ArrearsOwner[] = [];
  for (const owner of owners) {
    const room = (await post("/api/blade-pms/room/save", { areaId: building, roomName: owner.roomName })).id;
    const ownerId = (
      await post("/api/blade-pms/owner/submit", { ownerName: owner.ownerName, phone: owner.phone })
    ).id;
    await post("/api/blade-pms/ownerroom/submit", { ownerId, roomId: room });
    const meterId = (
      await post("/api/blade-pms/meter/submit", {
        productCode: owner.address,
        collectorId,
        controlStatus: 1,
        chargingSchemeId: price,
        alarmSchemeId: alarm,
      })
    ).id;
    await post("/api/blade-pms/roommeter/submit", { roomId: room, energyType: 1, meterId });
    made.push({ ...owner, meterId });
  }
  return made;
}
