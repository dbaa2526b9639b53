import { Select } from "antd";
import { createContext, useContext } from "react";
import { useTenantOptions } from "../../crud/tenant-column.tsx";
import { useT } from "../../i18n/index.tsx";

/**
 * The tenant the home page's cards read: "" is every tenant (the platform administrator's sum) or
 * the caller's own for anyone else, whom the server keeps in their tenant whatever is sent.
 */
export const HomeTenantContext = createContext("");

export const useHomeTenant = () => useContext(HomeTenantContext);

/** The query a home card's call adds: the picked tenant, or nothing (every tenant, or one's own). */
export const tenantQuery = (tenantId: string | undefined): Record<string, string> =>
  tenantId ? { tenantId } : {};

/**
 * The platform administrator's choice of every tenant or one. "All tenants" is an option of its own
 * rather than the empty select's placeholder: what is shown is then real text, readable at any contrast.
 */
export function HomeTenantPicker({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const t = useT();
  const tenants = useTenantOptions(true);
  return (
    <span className="ml-home-tenant">
      <label htmlFor="home-tenant">{t("home.tenantPicker")}</label>
      <Select
        id="home-tenant"
        value={value}
        onChange={onChange}
        options={[{ value: "", label: t("crud.tenant.all") }, ...tenants]}
        showSearch={{ optionFilterProp: "label" }}
        style={{ width: 240, maxWidth: "100%" }}
        data-testid="home-tenant"
      />
    </span>
  );
}
