import { LockOutlined } from "@ant-design/icons";
import { lazy, Suspense, useState } from "react";
import { useLocation } from "react-router";
import { hasLockPassword, lock, setLockPassword } from "../../app/lock.ts";
import { useT } from "../../i18n/index.tsx";
import { IconButton } from "./IconButton.tsx";

const LockPasswordDialog = lazy(() => import("./LockPasswordDialog.tsx"));

/** Lock button: asks for a lock password first when none is set (spec §4), then locks. */
export function LockButton() {
  const t = useT();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  // The dialog's code loads the first time it is needed and stays mounted (closed) after that.
  const [dialogWanted, setDialogWanted] = useState(false);

  const lockNow = () => lock(`${location.pathname}${location.search}`);

  const onLockClick = () => {
    if (hasLockPassword()) lockNow();
    else {
      setDialogWanted(true);
      setOpen(true);
    }
  };

  return (
    <>
      <IconButton label={t("top.lock")} icon={<LockOutlined />} onClick={onLockClick} testId="lock-button" />
      {dialogWanted ? (
        <Suspense fallback={null}>
          <LockPasswordDialog
            open={open}
            onClose={() => setOpen(false)}
            onSubmit={(password) => {
              // Locked only once the password's hash is kept, so that it can be unlocked.
              void setLockPassword(password).then(() => {
                setOpen(false);
                lockNow();
              });
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
