import { Button, Card, Descriptions, Empty, Space, Table, type TableColumnsType, Typography } from "antd";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import type { OwnerAccount, OwnerWithAccounts } from "./counter-calls.ts";
import { LevelTag } from "./LevelTag.tsx";
import { OwnerUsage } from "./OwnerUsage.tsx";

/** What the desk is about to do on an account: take money, give it back, or correct a mistake. */
export type CounterAction = "recharge" | "refund" | "correct";

interface Props {
  owner: OwnerWithAccounts;
  /** The platform administrator's owner may be any tenant's: say whose. */
  showTenant?: boolean;
  onAction: (action: CounterAction, account: OwnerAccount) => void;
}

/**
 * A local-prepaid meter keeps its balance itself: the desk can only write a recharge to it; money
 * in it comes back when its account is closed (the closing reads the meter), so refunds and
 * corrections are not offered on such an account.
 */
const offered = (action: CounterAction, account: OwnerAccount) =>
  action === "recharge" || account.controlStatus !== 0;

/** The chosen owner: who they are, each account with its balance and level, and 30 days of usage. */
export function OwnerPanel({ owner, showTenant = false, onAction }: Props) {
  const t = useT();
  const permission = useConsole((state) => state.permission);
  const allowed: { action: CounterAction; code: string; danger?: boolean }[] = [
    { action: "recharge", code: "ownerRecharge_recharge" },
    { action: "refund", code: "ownerRecharge_refund", danger: true },
    { action: "correct", code: "ownerRecharge_correct" },
  ];
  const actions = allowed.filter((a) => permission[a.code]);
  const columns: TableColumnsType<OwnerAccount> = [
    {
      title: t("counter.energy"),
      dataIndex: "energyType",
      render: (energy: number) => t(energy === 2 ? "counter.energy.2" : "counter.energy.1"),
    },
    {
      title: t("counter.meter"),
      dataIndex: "productCode",
      render: (code: string) => <span className="counter-code">{code}</span>,
    },
    { title: t("counter.room"), dataIndex: "roomName" },
    {
      title: t("counter.control"),
      dataIndex: "controlStatus",
      render: (control: number) => t(control === 0 ? "counter.control.0" : "counter.control.1"),
    },
    {
      title: t("counter.balance"),
      dataIndex: "balance",
      align: "right",
      render: (balance: string) => (
        <span className="counter-code" data-testid="counter-account-balance">
          {balance}
        </span>
      ),
    },
    {
      title: t("counter.level"),
      dataIndex: "alarmLevel",
      render: (level: number) => <LevelTag level={level} />,
    },
    ...(actions.length > 0
      ? [
          {
            title: t("counter.actions"),
            key: "actions",
            render: (_: unknown, account: OwnerAccount) => (
              <Space size={0} wrap>
                {actions
                  .filter((a) => offered(a.action, account))
                  .map((a) => (
                    <Button
                      key={a.action}
                      type="link"
                      size="small"
                      danger={a.danger}
                      onClick={() => onAction(a.action, account)}
                      aria-label={`${t(`counter.${a.action}`)} ${account.productCode}`}
                      data-testid={`counter-${a.action}`}
                    >
                      {t(`counter.${a.action}`)}
                    </Button>
                  ))}
                {account.controlStatus === 0 && actions.some((a) => a.action !== "recharge") && (
                  <Typography.Text type="secondary" data-testid="counter-local-hint">
                    {t("counter.localRefundHint")}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="counter-owner-panel">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 4 }}
        items={[
          ...(showTenant ? [{ key: "tenant", label: t("crud.tenant"), children: owner.tenantName }] : []),
          { key: "owner", label: t("counter.owner"), children: owner.ownerName },
          {
            key: "phone",
            label: t("counter.phone"),
            children: <span className="counter-code">{owner.phone}</span>,
          },
          {
            key: "level",
            label: t("counter.level"),
            children: <LevelTag level={owner.alarmLevel} noAccount={owner.accounts.length === 0} />,
          },
        ]}
      />
      <Table<OwnerAccount>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={owner.accounts}
        pagination={false}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: <Empty description={t("counter.noAccounts")} /> }}
        data-testid="counter-accounts"
      />
      <Card size="small" title={t("counter.usageTitle")}>
        <OwnerUsage
          ownerId={owner.id}
          tenantId={owner.tenantId}
          hasWater={owner.accounts.some((a) => a.energyType === 2)}
        />
      </Card>
    </Space>
  );
}
