import type { QueryParams, Row } from "@meterline/api-client";
import { ROLE_ADMINISTRATOR } from "@meterline/contracts";
import { Button, Card, Space, Table, type TableColumnsType, Typography } from "antd";
import { type ComponentProps, type ReactNode, useMemo, useState } from "react";
import { startDownload } from "../../app/download.ts";
import { PagedRows } from "../../components/PagedRows.tsx";
import { indexColumn } from "../../crud/columns.tsx";
import { useI18n } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { linkedCell } from "../detail/detail-links.tsx";
import { MoneyFilters } from "./MoneyFilters.tsx";
import { type MoneyListCalls, type MoneyPage, moneyExportHref } from "./money-calls.ts";
import type { MoneyFilter } from "./money-filters.ts";
import { ScrollRegion } from "./ScrollRegion.tsx";
import { useMoneyPage } from "./useMoneyPage.ts";

/**
 * A column of a money list. No column wraps or cuts (the table scrolls sideways instead), so
 * receipt and meter numbers always read whole; only a `cut` free text is shortened.
 */
export interface MoneyColumn {
  key: string;
  title: string;
  /** Money is aligned right, as figures are compared by their last digits. */
  kind?: "id" | "money" | "text";
  /** What the cell shows; the row's value under `key` by default. */
  render?: (row: Row) => ReactNode;
  /** A long free text (a remark): cut to one short line, the whole text on hover. */
  cut?: boolean;
}

export type Totals = NonNullable<MoneyPage["totals"]>;

interface Props {
  /** Names the list in the page (data-list), for tests and styles. */
  name: string;
  /** Names the table's scrolling region for screen readers (the screen's title). */
  title: string;
  calls: MoneyListCalls;
  filters: readonly MoneyFilter[];
  columns: readonly MoneyColumn[];
  /** What the totals row shows under each column; by default the totals named like a column. */
  totalsCells?: (totals: Totals) => Partial<Record<string, ReactNode>>;
  /** The totals in one line above the table, seen without scrolling to their columns. */
  totalsLine?: (totals: Totals) => string;
  /** Buttons before the export (a new payment order); `reload` refreshes the page shown. */
  toolbar?: (reload: () => Promise<void>) => ReactNode;
  /** Row buttons (details, remove, statement); `reload` refreshes the page shown. */
  rowActions?: (row: Row, reload: () => Promise<void>) => ReactNode;
  /** Choices of the search's selects when they differ from the payment lists' (see MoneyFilters). */
  choices?: Pick<ComponentProps<typeof MoneyFilters>, "stateOptions" | "tradeTypeOptions">;
}

const cellText = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/** Totals named like a column sit under it. */
const matchingTotals = (totals: Totals) =>
  Object.fromEntries(Object.entries(totals).map(([key, value]) => [key, cellText(value)]));

/**
 * The shared screen of the four money lists: the search bar, the export button the user may use,
 * a paged table whose last row sums the whole search (from the page's `totals`), and clear empty
 * and failure states.
 */
export function MoneyTable(props: Props) {
  const { name, title, calls, filters, columns, totalsCells, totalsLine, rowActions } = props;
  const { t } = useI18n();
  const permission = useConsole((state) => state.permission);
  // The platform administrator's rows come from every tenant: a first column says whose each is.
  const platform = useConsole((state) => state.roles.includes(ROLE_ADMINISTRATOR));
  const [query, setQuery] = useState<QueryParams>({});
  const page = useMoneyPage(calls.page, query);
  const { rows, current, size, totals, error, load } = page;
  const reload = () => load();
  // Totals named like a column, by the column's title.
  const defaultLine = (sums: Totals) =>
    columns
      .filter((column) => column.key in sums)
      .map((column) => `${column.title} ${cellText(sums[column.key])}`)
      .join(" · ");

  const tableColumns = useMemo<TableColumnsType<Row>>(() => {
    // No cell wraps: Chinese names would break a character per line in a wide table, and an
    // identifier must read whole; the region scrolls sideways instead.
    const shown: readonly MoneyColumn[] = platform
      ? [{ key: "tenantName", title: t("crud.tenant"), kind: "text" }, ...columns]
      : columns;
    const data = shown.map((column) => ({
      key: column.key,
      dataIndex: column.key,
      title: column.title,
      align: column.kind === "money" ? ("right" as const) : undefined,
      className: "ml-nowrap",
      render: (_: unknown, row: Row) => {
        if (column.render) return column.render(row);
        const text = cellText(row[column.key]);
        return column.cut ? (
          <span className="ml-cut-text" title={text}>
            {text}
          </span>
        ) : (
          // An owner or meter cell opens its detail page.
          linkedCell(name, column.key, row, text)
        );
      },
    }));
    return [indexColumn(current, size, t("crud.index")), ...data];
  }, [columns, current, size, t, name, platform]);

  const allColumns: TableColumnsType<Row> = rowActions
    ? [
        ...tableColumns,
        {
          key: "actions",
          title: t("crud.actions"),
          className: "ml-nowrap",
          render: (_: unknown, row: Row) => rowActions(row, reload),
        },
      ]
    : tableColumns;

  const summary = () => {
    if (!totals) return null;
    const cells = (totalsCells ?? matchingTotals)(totals);
    return (
      <Table.Summary>
        <Table.Summary.Row data-testid="money-totals">
          {allColumns.map((column, index) => {
            const key = String(column.key);
            const content =
              index === 0 ? (
                <Typography.Text strong title={t("moneyList.totalsHint")}>
                  {t("moneyList.totals")}
                </Typography.Text>
              ) : (
                <Typography.Text strong>{cells[key]}</Typography.Text>
              );
            const money = columns.find((c) => c.key === key)?.kind === "money";
            return (
              <Table.Summary.Cell
                key={key}
                index={index}
                align={money ? "right" : undefined}
                className="ml-nowrap"
              >
                {content}
              </Table.Summary.Cell>
            );
          })}
        </Table.Summary.Row>
      </Table.Summary>
    );
  };

  return (
    <Card data-testid="money-list" data-list={name}>
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <MoneyFilters fields={filters} onSearch={setQuery} byTenant={platform} {...props.choices} />
        <Space wrap size="large">
          {props.toolbar?.(reload)}
          {permission[calls.exportCode] && (
            <Button onClick={() => startDownload(moneyExportHref(calls, query))} data-testid="money-export">
              {t("crud.export")}
            </Button>
          )}
          {totals && !error && rows.length > 0 && (
            <Typography.Text data-testid="money-totals-line">
              {`${t("moneyList.totals")}: ${(totalsLine ?? defaultLine)(totals)}`}
            </Typography.Text>
          )}
        </Space>
        <PagedRows
          page={page}
          columns={allColumns}
          empty={t("crud.empty")}
          errorTestId="money-error"
          table={{ size: "middle", tableLayout: "auto", summary: rows.length > 0 ? summary : undefined }}
          wrap={(table) => <ScrollRegion label={title}>{table}</ScrollRegion>}
        />
      </Space>
    </Card>
  );
}
