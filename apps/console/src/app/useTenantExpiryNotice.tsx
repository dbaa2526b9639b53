import { website } from "@meterline/contracts";
import { useEffect } from "react";
import { useI18n } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { feedback } from "./feedback.ts";
import { daysUntil, shouldNotifyExpiry } from "./tenant-expiry.ts";

/**
 * Shows the tenant-expiry notification when the licence ends within 30 days (or already ended).
 * After the user closes it, it comes back every website.expiryNoticeIntervalMs (spec §4).
 */
export function useTenantExpiryNotice(): void {
  const profile = useConsole((state) => state.profile);
  const { t } = useI18n();

  useEffect(() => {
    const expireTime = profile?.tenantExpireTime ?? "";
    const now = Date.now();
    if (!shouldNotifyExpiry(expireTime, now)) return;
    const days = daysUntil(expireTime, now) ?? 0;
    const tenant = profile?.tenantName || profile?.tenantId || "";
    const key = "tenant-expiry";
    let timer: ReturnType<typeof setTimeout> | undefined;
    let disposed = false;
    const show = () => {
      feedback().notification.warning({
        key,
        title: days < 0 ? t("expiry.pastTitle") : t("expiry.soonTitle"),
        description:
          days < 0
            ? t("expiry.past", { tenant, date: expireTime })
            : t("expiry.soon", { tenant, date: expireTime, days }),
        duration: false,
        onClose: () => {
          if (!disposed) timer = setTimeout(show, website.expiryNoticeIntervalMs);
        },
        props: { "data-testid": "tenant-expiry-notice" },
      });
    };
    show();
    return () => {
      disposed = true;
      clearTimeout(timer);
      feedback().notification.destroy(key);
    };
  }, [profile, t]);
}
