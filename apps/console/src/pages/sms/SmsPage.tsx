import type { Row } from "@meterline/api-client";
import { resources } from "@meterline/contracts";
import { Button, Tag } from "antd";
import { useCallback, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { SmsDebugDialog } from "./SmsDebugDialog.tsx";
import { enableSms } from "./sms-calls.ts";

/** Status of a configuration (contract §12.3): 2 is the tenant's enabled one, 1 is off. */
const ENABLED = 2;

/**
 * The SMS settings screen: the generic table plus enabling one configuration (`sms_enable`) and a
 * test send through a configuration (`sms_debug`).
 */
export default function SmsPage() {
  const t = useT();
  const { message } = useFeedback();
  const canEnable = useConsole((state) => state.permission.sms_enable === true);
  const canDebug = useConsole((state) => state.permission.sms_debug === true);
  const [debugging, setDebugging] = useState<string | null>(null);
  const closeDebug = useCallback(() => setDebugging(null), []);

  const enable = async (row: Row, reload: () => Promise<void>) => {
    try {
      await enableSms(String(row.id));
      message.success(t("sms.enabled"));
      await reload();
    } catch (error) {
      reportNetworkError(error);
    }
  };

  return (
    <>
      <ResourcePage
        def={resources.sms}
        rowActions={(row, reload) => (
          <>
            {Number(row.status) === ENABLED ? (
              <Tag color="green" data-testid="row-sms-enabled">
                {t("sms.isEnabled")}
              </Tag>
            ) : (
              canEnable && (
                <Button
                  type="link"
                  size="small"
                  onClick={() => void enable(row, reload)}
                  data-testid="row-sms-enable"
                >
                  {t("sms.enable")}
                </Button>
              )
            )}
            {canDebug && (
              <Button
                type="link"
                size="small"
                onClick={() => setDebugging(String(row.smsCode ?? ""))}
                data-testid="row-sms-debug"
              >
                {t("sms.debug")}
              </Button>
            )}
          </>
        )}
      />
      {debugging !== null && <SmsDebugDialog code={debugging} onClose={closeDebug} />}
    </>
  );
}
