import type { Row } from "@meterline/api-client";
import { Button, Space } from "antd";
import type { ReactNode } from "react";
import { useT } from "../i18n/index.tsx";

interface Props {
  row: Row;
  /** Which standard buttons the user's permission codes allow. */
  allowed: { view: boolean; edit: boolean; remove: boolean; addChild: boolean };
  onView: () => void;
  onEdit: () => void;
  onRemove: () => void;
  onAddChild: () => void;
  extra?: ReactNode;
}

/** The row buttons of a resource table: view, edit, delete, add child (trees), then a page's own. */
export function RowActions({ allowed, onView, onEdit, onRemove, onAddChild, extra }: Props) {
  const t = useT();
  const link = (label: string, onClick: () => void, testId: string, danger = false) => (
    <Button type="link" size="small" danger={danger} onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
  return (
    <Space size={0} wrap>
      {allowed.view && link(t("crud.view"), onView, "row-view")}
      {allowed.edit && link(t("crud.edit"), onEdit, "row-edit")}
      {allowed.remove && link(t("crud.remove"), onRemove, "row-remove", true)}
      {allowed.addChild && link(t("crud.addChild"), onAddChild, "row-add-child")}
      {extra}
    </Space>
  );
}
