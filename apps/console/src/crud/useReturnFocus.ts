import { useEffect, useState } from "react";

/**
 * A dialog's page unmounts it as it closes, before antd could hand focus back: this keeps what was
 * focused when the dialog opened (新增, a row's 编辑 or 查看) and returns focus there on the way out.
 */
export function useReturnFocus(): void {
  const [opener] = useState(() => document.activeElement);
  useEffect(
    () => () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    },
    [opener],
  );
}
