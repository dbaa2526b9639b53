import type { LinkedAccount, SocialProviderOption } from "@meterline/contracts";
import { Button, Empty, Popconfirm, Space, Table } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { api, reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { finishLink, linkedAccounts, startLink, unlinkAccount } from "./linked-calls.ts";

/** Whether the address is a provider's return to this page (the tab opens by itself then). */
export const isLinkReturn = () => /[?&](social|socialError)=/.test(window.location.search);

/**
 * Profile, third tab: the user's accounts at sign-in providers, linking another (the provider's
 * round trip ends back here) and unlinking one; the server refuses to unlink the last way in.
 */
export function LinkedAccounts() {
  const t = useT();
  const { message } = useFeedback();
  const tenantId = useConsole((state) => state.tenantId);
  const [rows, setRows] = useState<LinkedAccount[] | null>(null);
  const [providers, setProviders] = useState<SocialProviderOption[]>([]);
  const returned = useRef(false);

  const load = useCallback(async () => {
    try {
      setRows(await linkedAccounts());
    } catch (error) {
      reportNetworkError(error);
      setRows([]);
    }
  }, []);

  useEffect(() => {
    api.loginOptions(tenantId).then(
      (options) => setProviders(options.socialProviders ?? []),
      () => setProviders([]),
    );
  }, [tenantId]);

  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const source = query.get("social");
    const code = query.get("code");
    const state = query.get("state");
    const error = query.get("socialError");
    if (!returned.current && (error || (source && code && state))) {
      returned.current = true;
      window.history.replaceState(window.history.state, "", window.location.pathname);
      if (error) message.error(t("social.failed", { reason: error }));
      else if (source && code && state) {
        finishLink(source, code, state)
          .then(() => message.success(t("linked.linked")))
          .catch(reportNetworkError)
          .finally(() => void load());
        return;
      }
    }
    void load();
  }, [load, message, t]);

  const link = async (source: string) => {
    try {
      const { url } = await startLink(source);
      window.location.assign(url);
    } catch (error) {
      reportNetworkError(error);
    }
  };

  const unlink = async (row: LinkedAccount) => {
    try {
      await unlinkAccount(row.id);
      message.success(t("linked.unlinked"));
      await load();
    } catch (error) {
      reportNetworkError(error);
    }
  };

  return (
    <div data-testid="linked-accounts">
      <Table<LinkedAccount>
        rowKey="id"
        size="small"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t("linked.empty")} /> }}
        columns={[
          { title: t("registration.source"), dataIndex: "source" },
          { title: t("registration.providerUsername"), dataIndex: "username" },
          { title: t("registration.providerName"), dataIndex: "nickname" },
          { title: t("registration.email"), dataIndex: "email" },
          { title: t("linked.since"), dataIndex: "createTime" },
          {
            title: "",
            key: "unlink",
            render: (_: unknown, row) => (
              <Popconfirm title={t("linked.unlinkConfirm")} onConfirm={() => unlink(row)}>
                <Button type="link" size="small" danger data-testid="linked-unlink">
                  {t("linked.unlink")}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      {providers.length > 0 ? (
        <Space wrap style={{ marginTop: 16 }}>
          <span>{t("linked.linkAnother")}</span>
          {providers.map((provider) => (
            <Button
              key={provider.source}
              onClick={() => void link(provider.source)}
              data-testid={`linked-link-${provider.source}`}
            >
              {provider.displayName}
            </Button>
          ))}
        </Space>
      ) : null}
    </div>
  );
}
