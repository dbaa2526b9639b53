import { CloseOutlined } from "@ant-design/icons";
import { resources } from "@meterline/contracts";
import { Button, Space, Tag } from "antd";
import { useMemo, useRef } from "react";
import { useLocation, useSearchParams } from "react-router";
import type { FormCustomization } from "../../../crud/form-customization.ts";
import { useT } from "../../../i18n/index.tsx";
import { AreaScopedPage } from "../area/AreaScopedPage.tsx";
import { AreaTreeLayout } from "../area/AreaTreeLayout.tsx";

const PATH = "/pms/collector";

/** A Modbus TCP endpoint (transport "modbus") is dialled at its host and port: shown for it alone. */
const ENDPOINT_FIELDS = new Set(["modbusHost", "modbusPort"]);
const collectorForm: FormCustomization = {
  visible: (name, values) => !ENDPOINT_FIELDS.has(name) || values.transport === "modbus",
  dependencies: { modbusHost: ["transport"], modbusPort: ["transport"] },
};

/**
 * The collector screen: areas on the left, the collectors of the chosen area (and below) on the
 * right. A link may name one collector (`?collectorCode=`, the global search's): the table then
 * shows it alone until the operator clears that filter.
 */
export default function CollectorPage() {
  const t = useT();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  // While another screen is shown this kept-alive copy sees that screen's address: keep its own.
  const linked = pathname === PATH ? (params.get("collectorCode") ?? "") : undefined;
  const code = useLatest(linked);
  const filters = useMemo(() => (code ? { collectorCode: code } : undefined), [code]);
  return (
    <AreaTreeLayout>
      {({ areaId }) => (
        <Space direction="vertical" style={{ width: "100%" }}>
          {code ? (
            <Tag color="blue" data-testid="collector-link-filter">
              {t("globalSearch.collectorFilter")}: {code}
              <Button
                type="text"
                size="small"
                icon={<CloseOutlined />}
                aria-label={t("globalSearch.clearFilter")}
                onClick={() => setParams({})}
              />
            </Tag>
          ) : null}
          <AreaScopedPage def={resources.collector} areaId={areaId} filters={filters} form={collectorForm} />
        </Space>
      )}
    </AreaTreeLayout>
  );
}

/** The last defined value: undefined (another screen's address) keeps what this screen had. */
function useLatest(value: string | undefined): string {
  const kept = useRef("");
  if (value !== undefined) kept.current = value;
  return kept.current;
}
