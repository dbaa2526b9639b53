import type { Row } from "@meterline/api-client";
import { resources } from "@meterline/contracts";
import { Button } from "antd";
import type { ReactNode } from "react";
import { useCallback, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { UserImportDialog } from "./UserImportDialog.tsx";
import { UserPlatformDialog } from "./UserPlatformDialog.tsx";
import { UserRoleDialog } from "./UserRoleDialog.tsx";
import { type ImportResult, resetPasswords, setUserStatus, unlockUsers } from "./user-calls.ts";

type Reload = () => Promise<void>;

/**
 * The user screen: the generic user table (with its status column and filter) plus, for the ticked
 * users, role grant (`user_role`), password reset (`user_reset`) and unlocking after failed sign-ins
 * (`user_unlock`); the Excel import of `user_import`, the platform settings row action of
 * `user_platform`, and enabling or disabling a user, an edit of it (`user_edit`). Each dialog keeps
 * the table's reload to call afterwards.
 */
export default function UserPage() {
  const t = useT();
  const canImport = useConsole((state) => state.permission.user_import === true);
  const canPlatform = useConsole((state) => state.permission.user_platform === true);
  const canEdit = useConsole((state) => state.permission.user_edit === true);
  const canGrant = useConsole((state) => state.permission.user_role === true);
  const canReset = useConsole((state) => state.permission.user_reset === true);
  const canUnlock = useConsole((state) => state.permission.user_unlock === true);
  const feedback = useFeedback();
  const [importing, setImporting] = useState<{ reload: Reload } | null>(null);
  const [granting, setGranting] = useState<{ userIds: readonly string[]; reload: Reload } | null>(null);
  const closeGrant = useCallback(() => setGranting(null), []);
  const [platform, setPlatform] = useState<{ userId: string; reload: Reload } | null>(null);
  const closeImport = useCallback(() => setImporting(null), []);
  const closePlatform = useCallback(() => setPlatform(null), []);

  const changeStatus = async (row: Row, status: 0 | 1, reload: Reload) => {
    await setUserStatus(String(row.id), status);
    feedback.message.success(t(status === 1 ? "user.enabled" : "user.disabled"));
    await reload();
  };

  /**
   * The confirmed actions on the ticked users. Neither a reset nor an unlock changes what the table
   * shows, so it stays as it is afterwards.
   */
  const confirmed = [
    { action: "reset", allowed: canReset, act: resetPasswords },
    { action: "unlock", allowed: canUnlock, act: unlockUsers },
  ] as const;

  const confirmThenAct = ({ action, act }: (typeof confirmed)[number], selected: readonly string[]) => {
    const count = { count: selected.length };
    feedback.modal.confirm({
      title: t(`user.${action}`),
      content: t(`user.${action}Confirm`, count),
      okText: t(`user.${action}`),
      okButtonProps: { "data-testid": "user-bulk-ok" },
      onOk: async () => {
        try {
          await act(selected);
        } catch (error) {
          // Shown by the API bridge (or here for transport failures); the users stay as they were.
          reportNetworkError(error);
          return;
        }
        feedback.message.success(t(`user.${action}Done`, count));
      },
    });
  };

  /** Role grant and the confirmed actions, for the ticked users (nothing ticked says so). */
  const bulkButtons = (reload: Reload, selected: readonly string[]): ReactNode[] => {
    const ticked = (then: () => void) => () =>
      selected.length === 0 ? feedback.message.warning(t("crud.selectOne")) : then();
    return [
      canGrant && (
        <Button
          key="role"
          onClick={ticked(() => setGranting({ userIds: selected, reload }))}
          data-testid="user-role"
        >
          {t("user.role")}
        </Button>
      ),
      ...confirmed.map(
        (c) =>
          c.allowed && (
            <Button
              key={c.action}
              onClick={ticked(() => confirmThenAct(c, selected))}
              data-testid={`user-${c.action}`}
            >
              {t(`user.${c.action}`)}
            </Button>
          ),
      ),
    ].filter(Boolean);
  };

  const imported = (result: ImportResult) => {
    // Refused rows change nothing, so the table only reloads when some user was written.
    if (result.created + result.updated > 0) void importing?.reload();
  };

  return (
    <>
      <ResourcePage
        def={resources.user}
        toolbar={(reload, selected) => (
          <>
            {bulkButtons(reload, selected)}
            {canImport && (
              <Button onClick={() => setImporting({ reload })} data-testid="user-import">
                {t("user.import")}
              </Button>
            )}
          </>
        )}
        rowActions={(row: Row, reload) => (
          <>
            {canPlatform && (
              <Button
                type="link"
                size="small"
                onClick={() => setPlatform({ userId: String(row.id), reload })}
                data-testid="row-platform"
              >
                {t("user.platform")}
              </Button>
            )}
            {canEdit &&
              (Number(row.status) === 1 ? (
                <Button
                  type="link"
                  size="small"
                  danger
                  onClick={() =>
                    feedback.modal.confirm({
                      title: t("user.disableConfirm"),
                      okText: t("user.disable"),
                      okButtonProps: { danger: true },
                      onOk: () => changeStatus(row, 0, reload),
                    })
                  }
                  data-testid="row-disable"
                >
                  {t("user.disable")}
                </Button>
              ) : (
                <Button
                  type="link"
                  size="small"
                  onClick={() => void changeStatus(row, 1, reload)}
                  data-testid="row-enable"
                >
                  {t("user.enable")}
                </Button>
              ))}
          </>
        )}
      />
      {importing && <UserImportDialog onClose={closeImport} onImported={imported} />}
      {granting && (
        <UserRoleDialog
          userIds={granting.userIds}
          onClose={closeGrant}
          onGranted={() => {
            closeGrant();
            void granting.reload();
          }}
        />
      )}
      {platform && (
        <UserPlatformDialog
          userId={platform.userId}
          onClose={closePlatform}
          onSaved={() => {
            closePlatform();
            void platform.reload();
          }}
        />
      )}
    </>
  );
}
