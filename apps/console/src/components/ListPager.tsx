import { website } from "@meterline/contracts";
import { Pagination } from "antd";
import { useT } from "../i18n/index.tsx";

interface Props {
  current: number;
  size: number;
  total: number;
  /** A new page size starts again at page 1: the page asked for may not exist at that size. */
  onPage: (page: number, size: number) => void;
}

/** The pager under a bespoke list: the family's page sizes, the total in words, right-aligned. */
export function ListPager({ current, size, total, onPage }: Props) {
  const t = useT();
  return (
    <Pagination
      align="end"
      current={current}
      pageSize={size}
      total={total}
      pageSizeOptions={website.pageSizes.map(String)}
      showSizeChanger
      showTotal={(count) => t("crud.total", { total: count })}
      onChange={(page, pageSize) => onPage(pageSize === size ? page : 1, pageSize)}
    />
  );
}
