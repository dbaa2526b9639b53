import { Button, Empty, Table, type TableColumnsType } from "antd";
import { useT } from "../../../i18n/index.tsx";
import type { OwnerPage, OwnerWithAccounts } from "./counter-calls.ts";
import { PAGE_SIZE } from "./counter-calls.ts";
import { LevelTag } from "./LevelTag.tsx";
import { sumTwoPlaces } from "./money-text.ts";

interface Props {
  page?: OwnerPage;
  loading: boolean;
  chosenId?: string;
  /** The platform administrator's results span tenants: a first column says whose each owner is. */
  showTenant?: boolean;
  onChoose: (owner: OwnerWithAccounts) => void;
  onPage: (current: number) => void;
}

/**
 * The owners a search found, each with the total of their balances and their worst level, so the
 * desk sees at a glance who is low. The name is a button: choosing works from the keyboard too.
 */
export function OwnerResults({ page, loading, chosenId, showTenant = false, onChoose, onPage }: Props) {
  const t = useT();
  const tenant: TableColumnsType<OwnerWithAccounts> = showTenant
    ? [{ title: t("crud.tenant"), dataIndex: "tenantName", key: "tenantName", className: "ml-nowrap" }]
    : [];
  const columns: TableColumnsType<OwnerWithAccounts> = [
    ...tenant,
    {
      title: t("counter.owner"),
      dataIndex: "ownerName",
      render: (_: unknown, owner) => (
        // A text button keeps the name in the body colour: a link's hover colour fails 4.5:1 on a hovered row.
        <Button
          type="text"
          size="small"
          aria-pressed={owner.id === chosenId}
          aria-label={t("counter.selectOwner", { name: owner.ownerName })}
          onClick={() => onChoose(owner)}
          data-testid="counter-owner"
        >
          {owner.ownerName}
        </Button>
      ),
    },
    {
      title: t("counter.phone"),
      dataIndex: "phone",
      render: (phone: string) => <span className="counter-code">{phone}</span>,
    },
    {
      title: t("counter.totalBalance"),
      key: "balance",
      align: "right",
      render: (_: unknown, owner) => (
        <span className="counter-code" data-testid="counter-owner-balance">
          {owner.accounts.length > 0 ? sumTwoPlaces(owner.accounts.map((a) => a.balance)) : "—"}
        </span>
      ),
    },
    {
      title: t("counter.level"),
      dataIndex: "alarmLevel",
      render: (level: number, owner) => <LevelTag level={level} noAccount={owner.accounts.length === 0} />,
    },
  ];
  return (
    <Table<OwnerWithAccounts>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={page?.records ?? []}
      loading={loading}
      rowClassName={(owner) => (owner.id === chosenId ? "counter-chosen" : "")}
      locale={{
        emptyText: <Empty description={`${t("counter.noOwners")} · ${t("counter.noOwnersHint")}`} />,
      }}
      pagination={{
        current: page?.current ?? 1,
        pageSize: PAGE_SIZE,
        total: page?.total ?? 0,
        showSizeChanger: false,
        hideOnSinglePage: true,
        onChange: onPage,
      }}
      data-testid="counter-owners"
    />
  );
}
