import { exportUrl, type QueryParams, type Row } from "@meterline/api-client";
import { permissionCodes, type ResourceDef, resourceBase, website, writePaths } from "@meterline/contracts";
import { Button, Card, Empty, Space, Table, type TableColumnsType } from "antd";
import { type ReactNode, useMemo, useState } from "react";
import { api, reportNetworkError } from "../app/api.ts";
import { currentToken, startDownload } from "../app/download.ts";
import { type LiveChange, useLiveChanges } from "../app/live.ts";
import { LoadFailed } from "../components/LoadFailed.tsx";
import { useI18n } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { headerWidth, totalWidth, withWidths } from "./column-sizing.ts";
import { dataColumns, indexColumn } from "./columns.tsx";
import { newFormValues, rawDefaults, toFormValues, toSubmitBody } from "./fields.ts";
import type { FormCustomization } from "./form-customization.ts";
import { resourceTitle } from "./labels.ts";
import { pagerTotal } from "./pager-total.ts";
import { RemoveMatchingButton } from "./RemoveMatchingButton.tsx";
import { type DialogMode, ResourceDialog } from "./ResourceDialog.tsx";
import { actionsWidth, RowActions, rowActionList } from "./RowActions.tsx";
import { SearchForm } from "./SearchForm.tsx";
import { TableTools } from "./TableTools.tsx";
import { useTableSettings } from "./table-settings.ts";
import { tenantColumn, useShowsTenant } from "./tenant-column.tsx";
import { useResourceRows } from "./useResourceRows.ts";
import "./table.css";
import { useFeedback } from "../app/feedback.ts";

export interface ResourcePageProps {
  def: ResourceDef;
  /**
   * Extra toolbar buttons of a bespoke page; `reload` refreshes the table, `selected` are the ticked
   * ids, `search` is what the table lists (base filters and the search bar) and `total` its count,
   * for batches over every matching row.
   */
  toolbar?: (
    reload: () => Promise<void>,
    selected: readonly string[],
    search: QueryParams,
    total: number,
  ) => ReactNode;
  /** Extra row buttons of a bespoke page, after view / edit / delete. */
  rowActions?: (row: Row, reload: () => Promise<void>) => ReactNode;
  /** Called with the submit answer of a create (e.g. a tenant's one-time admin password). */
  onCreated?: (answer: Record<string, unknown>) => void;
  dialogWidth?: number;
  /** A list verb other than the resource's own, answering a page or a plain list (`parent-list`). */
  listVerb?: string;
  /** Filters every list and export call carries besides the search (e.g. the selected parent). */
  baseFilters?: QueryParams;
  /** Show a tree resource as a flat table (no add-child row action). */
  flat?: boolean;
  /** Fields shown but never editable in this page's dialog (a dictionary item's code). */
  lockedFields?: readonly string[];
  /** Values of a new row beyond the definition's defaults, as the engine sends rows. */
  newRow?: () => Record<string, unknown>;
  /** A click on a row (master-detail pages); `activeRowId` marks the chosen one. */
  onRowClick?: (row: Row) => void;
  activeRowId?: string;
  /** Reshapes the columns made from the definition (rows of a joined list verb carry more). */
  columns?: (generated: TableColumnsType<Row>) => TableColumnsType<Row>;
  /** The page's own controls, visibility and checks in the add / edit form. */
  form?: FormCustomization;
  /** Search fields left out besides those the base filters already set. */
  searchOmit?: readonly string[];
  /** Told each search the operator runs (the area tree beside it follows the chosen tenant). */
  onSearch?: (filters: QueryParams) => void;
  /** Reads the table again when the server announces changes of these kinds (app/live.ts). */
  followChanges?: readonly LiveChange["kind"][];
}

/**
 * The generic screen of a plain resource (spec §2 "Generic CRUD screens"): search, toolbar, a paged
 * table (a tree table for tree resources) and the add / edit / view dialog, every button behind its
 * permission code. Bespoke pages pass extra actions instead of copying it.
 */
export function ResourcePage(props: ResourcePageProps) {
  const { def, toolbar, rowActions, onCreated, dialogWidth, listVerb, baseFilters, lockedFields } = props;
  const { t, language } = useI18n();
  const { message, modal } = useFeedback();
  const permission = useConsole((state) => state.permission);
  const [filters, setFilters] = useState<QueryParams>({});
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{
    mode: DialogMode;
    initial: Record<string, unknown>;
    row?: Record<string, unknown>;
  } | null>(null);
  const query = useMemo(() => ({ ...baseFilters, ...filters }), [baseFilters, filters]);
  const { rows, total, totalExact, current, size, loading, error, paged, load } = useResourceRows(
    def,
    query,
    listVerb,
  );
  const tree = Boolean(def.tree) && !props.flat;
  const addNew = () =>
    setDialog({ mode: "add", initial: toFormValues(def, { ...rawDefaults(def), ...props.newRow?.() }) });
  const codes = permissionCodes(def);
  const writable = !def.readOnly;
  const can = (code: string) => Boolean(permission[code]);
  const base = resourceBase(def);
  const verbs = writePaths(def);
  const reload = () => load();
  useLiveChanges("all", () => void load(), props.followChanges, Boolean(props.followChanges));
  const omitted = useMemo(
    () => [...Object.keys(baseFilters ?? {}), ...(props.searchOmit ?? [])],
    [baseFilters, props.searchOmit],
  );

  const openRow = async (mode: DialogMode, row: Row) => {
    try {
      const detail = await api.detailRow(base, String(row.id));
      setDialog({ mode, initial: toFormValues(def, detail), row: detail });
    } catch (failure) {
      reportNetworkError(failure);
    }
  };

  const submit = async (values: Record<string, unknown>, cleared: string[]) => {
    const creating = !values.id;
    const body = toSubmitBody(def, values, cleared);
    const verb = creating ? verbs.create : verbs.update;
    const answer = await api.submitRow(base, body, verb).catch((failure: unknown) => {
      reportNetworkError(failure);
      throw failure;
    });
    setDialog(null);
    await load();
    message.success(t(creating ? "crud.added" : "crud.updated"));
    if (creating) onCreated?.(answer);
  };

  const remove = (ids: string[]) => {
    if (ids.length === 0) {
      message.warning(t("crud.selectOne"));
      return;
    }
    modal.confirm({
      title: t("common.tip"),
      content: t("crud.removeConfirm"),
      okButtonProps: { "data-testid": "crud-remove-ok" },
      onOk: async () => {
        try {
          await api.removeRows(base, ids, verbs.remove);
        } catch (failure) {
          // Shown by the API bridge (or here for transport failures); the rows stay as they were.
          reportNetworkError(failure);
          return;
        }
        setSelected([]);
        await load();
        message.success(t("crud.removed"));
      },
    });
  };

  // The query holds the page's base filters too, so an items pane exports only its parent's items.
  const download = () => startDownload(exportUrl(base, query, currentToken()));

  const actionProps = (row: Row) => ({
    allowed: {
      view: can(codes.view),
      edit: writable && can(codes.edit),
      remove: writable && can(codes.remove),
      addChild: tree && writable && can(codes.add),
    },
    onView: () => void openRow("view", row),
    onEdit: () => void openRow("edit", row),
    onRemove: () => remove([String(row.id)]),
    onAddChild: () => setDialog({ mode: "add", initial: newFormValues(def, String(row.id)) }),
    extra: rowActions?.(row, reload),
  });
  const actions = (row: Row) => <RowActions row={row} {...actionProps(row)} />;

  const { settings, update: updateSettings } = useTableSettings(def.name);
  const reshape = props.columns;
  // The platform administrator's rows come from many tenants: a first column says whose each is.
  const showsTenant = useShowsTenant(def);
  const tenantTitle = t("crud.tenant");
  const dataCols = useMemo(() => {
    const generated = dataColumns(def, language, rows);
    const shaped = reshape ? reshape(generated) : generated;
    return withWidths(showsTenant ? [tenantColumn(tenantTitle, rows), ...shaped] : shaped);
  }, [def, language, rows, reshape, showsTenant, tenantTitle]);
  const choosable = dataCols.map((c) => ({
    key: String(c.key),
    title: typeof c.title === "string" ? c.title : String(c.key),
  }));
  const columns = useMemo(
    () => [
      indexColumn(paged ? current : 1, size, t("crud.index")),
      ...dataCols.filter((c) => !settings.hidden.includes(String(c.key))),
    ],
    [dataCols, settings.hidden, paged, current, size, t],
  );
  // The actions column fits the widest row's visible buttons on one line, and its title.
  const actionsTitle = t("crud.actions");
  const actionsColumnWidth = rows.reduce(
    (widest, row) => Math.max(widest, actionsWidth(rowActionList(actionProps(row), t)) + 24),
    headerWidth(actionsTitle),
  );
  const allColumns = [
    ...columns,
    {
      key: "actions",
      title: actionsTitle,
      // Kept at the right edge while the region scrolls (CSS sticky: antd's own fixed columns need
      // its scroll mode, whose hidden measuring row repeats the focusable select-all box).
      className: "crud-actions-cell",
      width: actionsColumnWidth,
      render: (_: unknown, row: Row) => actions(row),
    },
  ];

  return (
    <Card data-testid="resource-page" data-resource={def.name}>
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <SearchForm
          def={def}
          onSearch={(next) => {
            setFilters(next);
            props.onSearch?.(next);
          }}
          omit={omitted}
        />
        <div className="crud-table-tools">
          <Space wrap>
            {writable && can(codes.add) && (
              <Button type="primary" onClick={addNew} data-testid="crud-add">
                {t("crud.add")}
              </Button>
            )}
            {writable && can(codes.remove) && (
              <Button danger onClick={() => remove(selected)} data-testid="crud-remove">
                {t("crud.removeBulk")}
              </Button>
            )}
            {writable && can(codes.remove) && def.extraVerbs?.includes("matching-ids") && (
              <RemoveMatchingButton
                def={def}
                search={query}
                total={total}
                verb={verbs.remove}
                onRemoved={async () => {
                  setSelected([]);
                  await load();
                }}
              />
            )}
            {can(codes.exportRows) && (
              <Button onClick={download} data-testid="crud-export">
                {t("crud.export")}
              </Button>
            )}
            {toolbar?.(reload, selected, query, total)}
          </Space>
          <TableTools
            columns={choosable}
            hidden={settings.hidden}
            density={settings.density}
            onHidden={(hidden) => updateSettings({ hidden })}
            onDensity={(density) => updateSettings({ density })}
          />
        </div>
        {error ? (
          <LoadFailed error={error} onRetry={reload} testId="crud-error" />
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard.
          <section className="crud-scroll-region" tabIndex={0} aria-label={resourceTitle(def, language)}>
            <Table<Row>
              rowKey="id"
              className="crud-table"
              size={settings.density}
              loading={loading}
              dataSource={rows}
              columns={allColumns}
              tableLayout="fixed"
              style={{ minWidth: totalWidth(allColumns, 48) }}
              onRow={(row) => ({ onClick: () => props.onRowClick?.(row) })}
              rowClassName={(row) => (String(row.id) === props.activeRowId ? "ant-table-row-selected" : "")}
              rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
              locale={{ emptyText: <Empty description={t("crud.empty")} /> }}
              pagination={
                !paged
                  ? false
                  : {
                      current,
                      pageSize: size,
                      total,
                      pageSizeOptions: website.pageSizes.map(String),
                      showSizeChanger: true,
                      showTotal: (count) => {
                        const shown = pagerTotal(count, totalExact);
                        return t(shown.key, { total: shown.total });
                      },
                      onChange: (page, pageSize) => void load(pageSize === size ? page : 1, pageSize),
                    }
              }
            />
          </section>
        )}
      </Space>
      {dialog && (
        <ResourceDialog
          def={def}
          mode={dialog.mode}
          initial={dialog.initial}
          row={dialog.row}
          onSubmit={submit}
          onClose={() => setDialog(null)}
          width={dialogWidth}
          lockedFields={lockedFields}
          customization={props.form}
        />
      )}
    </Card>
  );
}
