import { ReloadOutlined } from "@ant-design/icons";
import type { QueryParams } from "@meterline/api-client";
import { Button, Card, Col, Empty, Row as GridRow, Input, Spin, Tree } from "antd";
import { createContext, type Key, type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useT } from "../../../i18n/index.tsx";
import { filterForest, forestKeys, titleOf } from "./area-forest.ts";
import { useAreaTree } from "./useAreaTree.ts";

/**
 * Told each search of the table beside the tree: the platform administrator's tenant filter narrows
 * the tree to that tenant's areas too. Outside a tree layout, nobody listens.
 */
export const AreaTreeSearch = createContext<((filters: QueryParams) => void) | undefined>(undefined);

/** The key of the "all areas" root: no area filter. */
const ALL = "__all__";

export interface AreaScope {
  /** The chosen area; undefined for all areas. */
  areaId?: string;
  areaName?: string;
  /** Reloads the tree (after an import created areas). */
  reloadTree: () => Promise<void>;
}

/**
 * The area tree beside a table (rooms, collectors, room meters): a searchable tree of the tenant's
 * areas with an "all areas" root; choosing an area hands its id to the table on the right, whose
 * calls take `areaId` as that area and everything below it.
 */
export function AreaTreeLayout({ children }: { children: (scope: AreaScope) => ReactNode }) {
  const t = useT();
  const [tenantId, setTenantId] = useState<string>();
  const tenantRef = useRef<string | undefined>(undefined);
  const { nodes, loading, error, reload } = useAreaTree(tenantId);
  const [areaId, setAreaId] = useState<string>();
  const followSearch = useCallback((filters: QueryParams) => {
    const next = typeof filters.tenantId === "string" && filters.tenantId ? filters.tenantId : undefined;
    if (next === tenantRef.current) return;
    tenantRef.current = next;
    setTenantId(next);
    // Another tenant's tree holds none of the chosen area: back to all areas.
    setAreaId(undefined);
  }, []);
  const [search, setSearch] = useState("");
  /** Keys the operator expanded; null = everything (the start, and while searching). */
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const shown = useMemo(() => filterForest(nodes, search), [nodes, search]);
  const treeData = useMemo(() => [{ key: ALL, title: t("pms.allAreas"), children: shown }], [shown, t]);
  const areaName = areaId ? titleOf(nodes, areaId) : undefined;

  const choose = (keys: Key[]) => {
    // A second click on the chosen node would unselect it; the table keeps its area instead.
    const [key] = keys.map(String);
    if (key === undefined) return;
    setAreaId(key === ALL ? undefined : key);
  };

  let body: ReactNode;
  if (error) {
    body = <LoadFailed error={error} onRetry={() => void reload()} />;
  } else {
    body = (
      <Spin spinning={loading}>
        <Tree
          blockNode
          treeData={treeData}
          selectedKeys={[areaId ?? ALL]}
          expandedKeys={expanded ?? [ALL, ...forestKeys(shown)]}
          onExpand={(keys) => setExpanded(keys.map(String))}
          onSelect={choose}
          aria-label={t("pms.areaTree")}
          data-testid="area-tree-nodes"
        />
        {!loading && nodes.length === 0 && (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("pms.noAreas")} />
        )}
      </Spin>
    );
  }

  return (
    <GridRow gutter={[16, 16]} data-testid="area-tree-layout">
      <Col xs={24} lg={6} xxl={5}>
        <Card
          size="small"
          title={t("pms.areaTree")}
          data-testid="area-tree"
          extra={
            <Button
              type="text"
              size="small"
              icon={<ReloadOutlined />}
              onClick={() => void reload()}
              aria-label={t("common.refresh")}
            />
          }
          styles={{ body: { maxHeight: "calc(100vh - 240px)", overflow: "auto" } }}
        >
          <Input.Search
            allowClear
            placeholder={t("pms.areaSearch")}
            onChange={(event) => {
              setSearch(event.target.value);
              setExpanded(null);
            }}
            style={{ marginBottom: 8 }}
            data-testid="area-tree-search"
          />
          {body}
        </Card>
      </Col>
      <Col xs={24} lg={18} xxl={19} style={{ minWidth: 0 }}>
        <AreaTreeSearch.Provider value={followSearch}>
          {children({ areaId, areaName, reloadTree: reload })}
        </AreaTreeSearch.Provider>
      </Col>
    </GridRow>
  );
}
