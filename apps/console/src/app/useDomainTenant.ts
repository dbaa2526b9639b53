import type { TenantDomainInfo } from "@meterline/contracts";
import { useEffect, useState } from "react";
import { api } from "./api.ts";

let pending: Promise<TenantDomainInfo> | null = null;

/** Tenant bound to this address (contract §5.8); fetched once per page load, retried after a failure. */
export function domainTenant(): Promise<TenantDomainInfo> {
  pending ??= api.tenantInfo(window.location.origin).catch(() => {
    pending = null;
    return {};
  });
  return pending;
}

/** undefined while loading; `tenantId` present when the tenant can be derived from the address. */
export function useDomainTenant(): TenantDomainInfo | undefined {
  const [info, setInfo] = useState<TenantDomainInfo>();
  useEffect(() => {
    let live = true;
    domainTenant().then((value) => {
      if (live) setInfo(value ?? {});
    });
    return () => {
      live = false;
    };
  }, []);
  return info;
}
