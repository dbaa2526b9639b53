import type { Row } from "@meterline/api-client";
import { resources } from "@meterline/contracts";
import { Button } from "antd";
import { useCallback, useState } from "react";
import { useFeedback } from "../../app/feedback.ts";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { UserImportDialog } from "./UserImportDialog.tsx";
import { UserPlatformDialog } from "./UserPlatformDialog.tsx";
import { type ImportResult, setUserStatus } from "./user-calls.ts";

type Reload = () => Promise<void>;

/**
 * The user screen: the generic user table (with its status column and filter) plus the Excel import
 * of `user_import`, the platform settings row action of `user_platform`, and enabling or disabling a
 * user, an edit of it (`user_edit`). Each dialog keeps the table's reload to call afterwards.
 */
export default function UserPage() {
  const t = useT();
  const canImport = useConsole((state) => state.permission.user_import === true);
  const canPlatform = useConsole((state) => state.permission.user_platform === true);
  const canEdit = useConsole((state) => state.permission.user_edit === true);
  const feedback = useFeedback();
  const [importing, setImporting] = useState<{ reload: Reload } | null>(null);
  const [platform, setPlatform] = useState<{ userId: string; reload: Reload } | null>(null);
  const closeImport = useCallback(() => setImporting(null), []);
  const closePlatform = useCallback(() => setPlatform(null), []);

  const changeStatus = async (row: Row, status: 0 | 1, reload: Reload) => {
    await setUserStatus(String(row.id), status);
    feedback.message.success(t(status === 1 ? "user.enabled" : "user.disabled"));
    await reload();
  };

  const imported = (result: ImportResult) => {
    // Refused rows change nothing, so the table only reloads when some user was written.
    if (result.created + result.updated > 0) void importing?.reload();
  };

  return (
    <>
      <ResourcePage
        def={resources.user}
        toolbar={(reload) =>
          canImport && (
            <Button onClick={() => setImporting({ reload })} data-testid="user-import">
              {t("user.import")}
            </Button>
          )
        }
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
