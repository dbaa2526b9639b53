import type { ResourceDef } from "@meterline/contracts";
import { Alert, Button, Form, Modal, Space, Spin, TreeSelect } from "antd";
import { useEffect, useState } from "react";
import { describeError, reportNetworkError } from "../../../app/api.ts";
import { loadMatching, type Matching, matchingMeters } from "../../../crud/matching.ts";
import { TenantFilter, useShowsTenant } from "../../../crud/tenant-column.tsx";
import { useT } from "../../../i18n/index.tsx";
import { titleOf } from "../area/area-forest.ts";
import { useAreaTree } from "../area/useAreaTree.ts";
import type { Energy } from "./switch-calls.ts";

export interface AreaTarget {
  meters: { id: string; productCode: string }[];
  /** The tenant the platform administrator aimed at; the switch call names it. */
  tenantId?: string;
}

interface Props {
  def: ResourceDef;
  energy: Energy;
  onConfirmed: (target: AreaTarget) => void;
  onClose: () => void;
}

/** The meters below one area, counted by the server with the caller's tenant and data scope. */
function useAreaMeters(def: ResourceDef, areaId?: string, tenantId?: string) {
  const [state, setState] = useState<{ matching?: Matching; loading: boolean; error?: string }>({
    loading: false,
  });
  useEffect(() => {
    if (!areaId) return setState({ loading: false });
    let live = true;
    setState({ loading: true });
    loadMatching(def, { areaId, ...(tenantId ? { tenantId } : {}) }).then(
      (matching) => live && setState({ matching, loading: false }),
      (failure: unknown) => {
        reportNetworkError(failure);
        if (live) setState({ loading: false, error: describeError(failure) });
      },
    );
    return () => {
      live = false;
    };
  }, [def, areaId, tenantId]);
  return state;
}

/**
 * The first step of a switch aimed at an area (a park, a building, a floor): choose it in the tree,
 * read how many meters the server finds below it, and confirm that count. Nothing is sent here;
 * the switch dialog that follows chooses the direction and goes through the command lifecycle.
 */
export function AreaTargetDialog({ def, energy, onConfirmed, onClose }: Props) {
  const t = useT();
  // The platform administrator first names the tenant whose areas to aim at.
  const crossTenant = useShowsTenant(def);
  const [tenantId, setTenantId] = useState<string>();
  const [areaId, setAreaId] = useState<string>();
  const areas = useAreaTree(tenantId);
  const { matching, loading, error } = useAreaMeters(def, areaId, tenantId);
  const area = areaId ? (titleOf(areas.nodes, areaId) ?? "") : "";
  const count = matching?.total ?? 0;
  const tooMany = matching !== undefined && matching.total > matching.ids.length;
  const ready = matching !== undefined && count > 0 && !tooMany && !loading;
  const waitingForTenant = crossTenant && !tenantId;

  let summary = null;
  if (error) summary = <Alert type="error" showIcon title={error} />;
  else if (tooMany)
    summary = <Alert type="warning" showIcon title={t("batch.tooMany", { max: matching.limit })} />;
  else if (matching && count === 0)
    summary = <Alert type="warning" showIcon title={t("batch.area.none", { area })} />;
  else if (matching)
    summary = (
      <Alert
        type="info"
        showIcon
        title={t("batch.area.count", { area, count })}
        data-testid="area-target-count"
      />
    );

  return (
    <Modal
      open
      title={t(`batch.area.title.${energy}`)}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button
            type="primary"
            disabled={!ready}
            onClick={() => matching && onConfirmed({ meters: matchingMeters(matching), tenantId })}
            data-testid="area-target-ok"
          >
            {t("batch.area.next", { count })}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" style={{ width: "100%" }} data-testid="area-target-dialog">
        <Form layout="vertical">
          {crossTenant ? (
            <Form.Item label={t("crud.tenant")} htmlFor="area-target-tenant">
              <TenantFilter
                id="area-target-tenant"
                shown
                value={tenantId}
                onChange={(value) => {
                  setTenantId(value || undefined);
                  setAreaId(undefined);
                }}
              />
            </Form.Item>
          ) : null}
          <Form.Item label={t("batch.area.pick")} htmlFor="area-target-area">
            <TreeSelect
              id="area-target-area"
              value={areaId}
              onChange={(value?: string) => setAreaId(value || undefined)}
              treeData={waitingForTenant ? [] : areas.nodes}
              loading={areas.loading}
              disabled={waitingForTenant}
              allowClear
              showSearch
              treeNodeFilterProp="title"
              treeDefaultExpandAll
              placeholder={t(waitingForTenant ? "batch.area.tenantFirst" : "batch.area.pickPlaceholder")}
              style={{ width: "100%" }}
              aria-label={t("batch.area.pick")}
              data-testid="area-target-tree"
            />
          </Form.Item>
        </Form>
        {loading ? <Spin /> : summary}
      </Space>
    </Modal>
  );
}
