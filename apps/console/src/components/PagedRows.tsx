import type { Row } from "@meterline/api-client";
import { Empty, Table, type TableProps } from "antd";
import type { ReactNode } from "react";
import { ListPager } from "./ListPager.tsx";
import { LoadFailed } from "./LoadFailed.tsx";

/** What a paged list's hook holds (useMoneyPage): the page shown and how to load another. */
export interface PageState {
  rows: Row[];
  total: number;
  current: number;
  size: number;
  loading: boolean;
  error: string | null;
  load: (current?: number, size?: number) => Promise<void>;
}

interface Props {
  page: PageState;
  columns: NonNullable<TableProps<Row>["columns"]>;
  /** What an empty search says. */
  empty: string;
  /** Names the failure's panel for tests. */
  errorTestId: string;
  /** The table's own settings (size, scroll, summary, layout). */
  table?: Omit<TableProps<Row>, "columns" | "dataSource" | "loading" | "pagination" | "rowKey">;
  /** Puts the table in a surrounding element (a labelled scrolling region). */
  wrap?: (table: ReactNode) => ReactNode;
}

/**
 * A bespoke list's body: the failure with a retry in place of stale rows, or the rows of the page
 * and the pager under them.
 */
export function PagedRows({ page, columns, empty, errorTestId, table, wrap = (t) => t }: Props) {
  const { rows, total, current, size, loading, error, load } = page;
  if (error) return <LoadFailed error={error} onRetry={() => void load()} testId={errorTestId} />;
  return (
    <>
      {wrap(
        <Table<Row>
          rowKey="id"
          {...table}
          loading={loading}
          dataSource={rows}
          columns={columns}
          locale={{ emptyText: <Empty description={empty} /> }}
          pagination={false}
        />,
      )}
      <ListPager
        current={current}
        size={size}
        total={total}
        onPage={(next, nextSize) => void load(next, nextSize)}
      />
    </>
  );
}
