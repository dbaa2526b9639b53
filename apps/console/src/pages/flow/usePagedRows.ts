import type { Row } from "@meterline/api-client";
import type { Page } from "@meterline/contracts";
import { useCallback, useEffect, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";

/** A paged list read from one call: rows, total, pager state, loading and failure, and reload. */
export function usePagedRows(load: (current: number, size: number) => Promise<Page<Row>>) {
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [current, setCurrent] = useState(1);
  const [size, setSize] = useState(10);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const answer = await load(current, size);
      setRows(answer.records);
      setTotal(answer.total);
      setFailed(false);
    } catch (error) {
      setFailed(true);
      reportNetworkError(error);
    } finally {
      setLoading(false);
    }
  }, [load, current, size]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const pagination = {
    current,
    pageSize: size,
    total,
    showSizeChanger: true,
    pageSizeOptions: [10, 30, 50, 100, 200],
    onChange: (page: number, pageSize: number) => {
      setCurrent(pageSize === size ? page : 1);
      setSize(pageSize);
    },
  };
  return { rows, loading, failed, reload, pagination };
}
