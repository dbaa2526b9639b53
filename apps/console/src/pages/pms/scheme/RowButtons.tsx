import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Button } from "antd";
import type { CSSProperties } from "react";

/** The bin button ending a row of a list editor; its label names the row for screen readers. */
export function RemoveRowButton(props: { onClick: () => void; disabled?: boolean; label: string }) {
  return (
    <Button
      type="text"
      danger
      icon={<DeleteOutlined />}
      onClick={props.onClick}
      disabled={props.disabled}
      aria-label={props.label}
    />
  );
}

/** The dashed button under a list editor that adds a row. */
export function AddRowButton(props: {
  onClick: () => void;
  disabled?: boolean;
  label: string;
  testId: string;
  style?: CSSProperties;
}) {
  return (
    <Button
      type="dashed"
      icon={<PlusOutlined />}
      onClick={props.onClick}
      disabled={props.disabled}
      style={props.style}
      data-testid={props.testId}
    >
      {props.label}
    </Button>
  );
}
