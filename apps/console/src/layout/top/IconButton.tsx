import { Button, Tooltip } from "antd";
import type { ReactNode } from "react";

interface Props {
  label: string;
  icon: ReactNode;
  onClick?: () => void;
  testId: string;
  /** Hides the tooltip, e.g. while the button's own popup is open and the tooltip would cover it. */
  quiet?: boolean;
}

/** A top-bar button: icon only, labelled for screen readers and with a tooltip. */
export function IconButton({ label, icon, onClick, testId, quiet = false }: Props) {
  return (
    <Tooltip title={label} open={quiet ? false : undefined}>
      <Button
        type="text"
        className="ml-top-button"
        icon={icon}
        aria-label={label}
        onClick={onClick}
        data-testid={testId}
      />
    </Tooltip>
  );
}
