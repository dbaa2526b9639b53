import type { Row } from "@meterline/api-client";
import {
  crossesTenants,
  type ResourceDef,
  ROLE_ADMINISTRATOR,
  resourceBase,
  resources,
} from "@meterline/contracts";
import { Select, type TableColumnsType } from "antd";
import { useEffect, useState } from "react";
import { api, reportNetworkError } from "../app/api.ts";
import { useI18n } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { valueWidth } from "./column-sizing.ts";

/**
 * Whether a screen tells whose each row is: only the platform administrator, who reads tenant-scoped
 * resources across tenants, and only for such resources. Everyone else sees their own tenant alone.
 */
export function useShowsTenant(def: ResourceDef): boolean {
  return usePlatformAdministrator() && crossesTenants(def);
}

/** The platform administrator, whose lists span tenants and name each row's. */
export const usePlatformAdministrator = () => useConsole((state) => state.roles.includes(ROLE_ADMINISTRATOR));

interface TenantOption {
  value: string;
  label: string;
}

/** The tenants to filter by, from the tenant select call, read once when the filter is shown. */
export function useTenantOptions(shown: boolean): TenantOption[] {
  const [options, setOptions] = useState<TenantOption[]>([]);
  useEffect(() => {
    if (!shown) return;
    let current = true;
    api
      .get<Row[]>(`${resourceBase(resources.tenant)}/select`)
      .then((rows) => {
        if (!current) return;
        setOptions(
          rows.map((row) => ({
            value: String(row.tenantId),
            label: `${String(row.tenantName ?? "")} (${String(row.tenantId)})`,
          })),
        );
      })
      .catch(reportNetworkError);
    return () => {
      current = false;
    };
  }, [shown]);
  return options;
}

/** The search form's tenant select (its value is the `tenantId` the list call narrows by). */
export function TenantFilter({
  shown,
  ...rest
}: {
  shown: boolean;
  id?: string;
  value?: string;
  /** Cleared, it answers undefined: every tenant again. */
  onChange?: (value: string | undefined) => void;
  /** Where no form label names it. */
  "aria-label"?: string;
}) {
  const { t } = useI18n();
  const options = useTenantOptions(shown);
  return (
    <Select
      {...rest}
      options={options}
      allowClear
      showSearch={{ optionFilterProp: "label" }}
      placeholder={t("crud.tenant.all")}
      style={{ width: 200 }}
      data-testid="search-tenantId"
    />
  );
}

/** The tenant column: the name the list joins in (`tenantName`), ellipsised past its width. */
export function tenantColumn(title: string, rows: readonly Row[]): TableColumnsType<Row>[number] {
  const text = (row: Row) => String(row.tenantName ?? "");
  return {
    key: "tenantName",
    dataIndex: "tenantName",
    title,
    width: valueWidth(title, { type: "string" }, rows.map(text)),
    ellipsis: { showTitle: false },
    onCell: (row: Row) => ({ title: text(row) || undefined }),
  };
}
