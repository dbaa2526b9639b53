import { DownloadOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { Button, Card, Col, Row as GridRow, Input, Space, Table, type TableColumnsType, Tree } from "antd";
import { type Key, useCallback, useEffect, useState } from "react";
import { describeError, reportNetworkError } from "../../app/api.ts";
import { startDownload } from "../../app/download.ts";
import { useFeedback } from "../../app/feedback.ts";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { RegionDialog, type RegionDialogMode } from "./RegionDialog.tsx";
import { RegionImportDialog } from "./RegionImportDialog.tsx";
import {
  exportRegionUrl,
  type Region,
  type RegionNode,
  ROOT_CODE,
  regionChildren,
  regionLevel,
  removeRegion,
  searchRegions,
} from "./region-calls.ts";
import { levelLabel } from "./region-labels.ts";

interface TreeItem {
  key: string;
  title: string;
  isLeaf: boolean;
  children?: TreeItem[];
}

const toItem = (node: RegionNode): TreeItem => ({
  key: node.id,
  title: node.title,
  isLeaf: !node.hasChildren,
});

/** Puts `children` under the item `key`, wherever it sits in the tree. */
const withChildren = (items: TreeItem[], key: string, children: TreeItem[]): TreeItem[] =>
  items.map((item) =>
    item.key === key
      ? { ...item, children, isLeaf: children.length === 0 }
      : item.children
        ? { ...item, children: withChildren(item.children, key, children) }
        : item,
  );

const PAGE_SIZE = 20;

/**
 * 行政区划 (contract §10.8): the tree loads a level when it is opened (lazy-tree by parentCode);
 * the table lists the chosen region's children, or a name search across every level; regions are
 * viewed by code, added under the chosen one, edited, removed, imported and exported as Excel.
 */
export default function RegionPage() {
  const t = useT();
  const { modal, message } = useFeedback();
  const permission = useConsole((state) => state.permission);
  const can = (code: string) => Boolean(permission[code]);
  const [tree, setTree] = useState<TreeItem[]>([
    { key: ROOT_CODE, title: t("region.country"), isLeaf: false },
  ]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [selected, setSelected] = useState<{ code: string; name: string }>({
    code: ROOT_CODE,
    name: t("region.country"),
  });
  const [search, setSearch] = useState("");
  const [current, setCurrent] = useState(1);
  const [rows, setRows] = useState<Region[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<{ mode: RegionDialogMode; code?: string } | null>(null);
  const [importing, setImporting] = useState(false);

  const loadRows = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      if (search) {
        const page = await searchRegions(search, current, PAGE_SIZE);
        setRows(page.records);
        setTotal(page.total);
      } else {
        const level = await regionLevel(selected.code);
        setRows(level);
        setTotal(level.length);
      }
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setLoading(false);
    }
  }, [search, current, selected.code]);

  useEffect(() => {
    void loadRows();
  }, [loadRows]);

  /** Loads (or reloads, after a change) the children of one node of the tree. */
  const loadLevel = async (code: string) => {
    try {
      const children = (await regionChildren(code)).map(toItem);
      setTree((items) => withChildren(items, code, children));
    } catch (failure) {
      reportNetworkError(failure);
    }
  };

  /** After a write: the table and the chosen node's children again, shown open. */
  const changed = async () => {
    await Promise.all([loadRows(), loadLevel(selected.code)]);
    setExpanded((keys) => (keys.includes(selected.code) ? keys : [...keys, selected.code]));
  };

  const remove = (row: Region) =>
    modal.confirm({
      title: t("region.removeConfirm", { name: row.name }),
      okText: t("common.ok"),
      cancelText: t("common.cancel"),
      onOk: async () => {
        try {
          await removeRegion(row.code);
          message.success(t("crud.removed"));
          await changed();
        } catch (failure) {
          reportNetworkError(failure);
        }
      },
    });

  const columns: TableColumnsType<Region> = [
    { title: t("region.code"), dataIndex: "code", width: 140 },
    { title: t("region.name"), dataIndex: "name", ellipsis: true },
    {
      title: t("region.level"),
      dataIndex: "regionLevel",
      width: 130,
      render: (v: number) => levelLabel(t, v),
    },
    { title: t("region.sort"), dataIndex: "sort", width: 80 },
    { title: t("region.remark"), dataIndex: "remark", ellipsis: true },
    {
      title: t("crud.actions"),
      key: "actions",
      width: 180,
      render: (_, row) => (
        <Space size={0} wrap={false}>
          {can("region_view") && (
            <Button type="link" size="small" onClick={() => setDialog({ mode: "view", code: row.code })}>
              {t("crud.view")}
            </Button>
          )}
          {can("region_edit") && (
            <Button type="link" size="small" onClick={() => setDialog({ mode: "edit", code: row.code })}>
              {t("crud.edit")}
            </Button>
          )}
          {can("region_delete") && (
            <Button type="link" size="small" danger onClick={() => remove(row)}>
              {t("crud.remove")}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <GridRow gutter={16} data-testid="region-page">
      <Col xs={24} md={8} lg={6}>
        <Card size="small" title={t("region.tree")}>
          <Tree
            blockNode
            treeData={tree.map((item) =>
              item.key === ROOT_CODE ? { ...item, title: t("region.country") } : item,
            )}
            expandedKeys={expanded}
            onExpand={setExpanded}
            loadData={(node) => loadLevel(String(node.key))}
            selectedKeys={[selected.code]}
            onSelect={(keys, info) => {
              const [key] = keys.map(String);
              if (key === undefined) return;
              setSearch("");
              setCurrent(1);
              setSelected({ code: key, name: String(info.node.title) });
            }}
            aria-label={t("region.tree")}
            data-testid="region-tree"
          />
        </Card>
      </Col>
      <Col xs={24} md={16} lg={18}>
        <Card
          size="small"
          title={
            search
              ? t("region.search")
              : t("region.children", {
                  name: selected.code === ROOT_CODE ? t("region.country") : selected.name,
                })
          }
          extra={
            <Input.Search
              allowClear
              aria-label={t("region.search")}
              placeholder={t("region.search")}
              style={{ width: 240 }}
              onSearch={(value) => {
                setCurrent(1);
                setSearch(value.trim());
              }}
              data-testid="region-search"
            />
          }
        >
          <Space wrap style={{ marginBottom: 12 }}>
            {can("region_add") && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setDialog({ mode: "add" })}
                data-testid="crud-add"
              >
                {t("crud.add")}
              </Button>
            )}
            {can("region_import") && (
              <Button
                icon={<UploadOutlined />}
                onClick={() => setImporting(true)}
                data-testid="region-import"
              >
                {t("region.import")}
              </Button>
            )}
            {can("region_export") && (
              <Button
                icon={<DownloadOutlined />}
                onClick={() => startDownload(exportRegionUrl(selected.code))}
                data-testid="region-export"
              >
                {t("crud.export")}
              </Button>
            )}
          </Space>
          {error ? (
            <LoadFailed error={error} onRetry={() => void loadRows()} />
          ) : (
            <Table<Region>
              rowKey="code"
              size="small"
              columns={columns}
              dataSource={rows}
              loading={loading}
              scroll={{ x: "max-content" }}
              pagination={
                search
                  ? {
                      current,
                      pageSize: PAGE_SIZE,
                      total,
                      showSizeChanger: false,
                      onChange: setCurrent,
                      showTotal: (count) => t("crud.total", { total: count }),
                    }
                  : false
              }
              data-testid="region-table"
            />
          )}
        </Card>
      </Col>
      {dialog && (
        <RegionDialog
          mode={dialog.mode}
          code={dialog.code}
          parent={selected}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void changed();
          }}
        />
      )}
      {importing && (
        <RegionImportDialog
          onClose={() => setImporting(false)}
          onImported={() => {
            void changed();
          }}
        />
      )}
    </GridRow>
  );
}
