import { Alert, Card, Descriptions, Table, Typography } from "antd";
import { type MessageKey, useI18n } from "../../i18n/index.tsx";
import type { AccountMonth, MonthStatement, UsagePart } from "./month-statement-calls.ts";
import { ScrollRegion } from "./ScrollRegion.tsx";

interface Line {
  key: string;
  label: string;
  usage: string;
  amount: string;
}

interface Props {
  statement: MonthStatement;
  onPage: (current: number, size: number) => void;
}

/**
 * A month's statement: what it covers, the lines a reader checks (opening, money in and out,
 * usage by tier and band, fees, closing), whether they add up, and its accounts page by page.
 */
export function MonthStatementView({ statement, onPage }: Props) {
  const { t } = useI18n();
  const partLabel = (u: UsagePart) => {
    const tier = /^tier(\d+)$/.exec(u.part);
    const part = tier
      ? t("monthStatement.part.tier", { n: tier[1] ?? "" })
      : t(`monthStatement.part.${u.part}` as MessageKey);
    const unit = u.energyType === 2 ? "m³" : "kWh";
    return `${t(`monthStatement.energy.${u.energyType}` as MessageKey)} ${part} (${unit})`;
  };
  const line = (
    key: string,
    amount: string,
    label = t(`monthStatement.${key}` as MessageKey),
    usage = "",
  ) => ({
    key,
    label,
    usage,
    amount,
  });
  const lines: Line[] = [
    line("opening", statement.openingBalance),
    line("deposit", statement.deposit),
    line("recharge", statement.recharge),
    line("refund", statement.refund),
    line("correction", statement.correction),
    line("usageCorrection", statement.usageCorrection),
    ...statement.usage.map((u) => line(`usage-${u.energyType}-${u.part}`, u.charge, partLabel(u), u.usage)),
    line("fee", statement.fee),
    line("apportion", statement.apportion),
    line("closing", statement.closingBalance),
  ];
  const scope = t(`monthStatement.scope.${statement.scope.kind}` as MessageKey);
  const right = { align: "right" as const, className: "ml-nowrap" };
  const page = statement.accountPage;
  const money = (key: keyof AccountMonth, title: MessageKey) => ({
    key,
    dataIndex: key,
    title: t(title),
    ...right,
  });

  return (
    <Card data-testid="month-statement">
      <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="month-statement-title">
        {/* The name is data (what was typed), the rest a label. */}
        <span data-value>{statement.scope.name}</span>{" "}
        {t("monthStatement.title", { scope, month: statement.month })}
      </Typography.Title>
      <Descriptions
        size="small"
        column={{ xs: 1, md: 3 }}
        items={[
          {
            key: "period",
            label: t("monthStatement.period"),
            children: `${statement.from} ~ ${statement.to}`,
          },
          { key: "accounts", label: t("monthStatement.accounts"), children: statement.accounts },
        ]}
      />
      <Alert
        style={{ margin: "12px 0" }}
        type={statement.balanced ? "success" : "error"}
        showIcon
        message={t(statement.balanced ? "monthStatement.balanced" : "monthStatement.unbalanced")}
        data-testid="month-statement-balanced"
        data-balanced={String(statement.balanced)}
      />
      <ScrollRegion label={t("monthStatement.summary")}>
        <Table<Line>
          rowKey="key"
          size="small"
          pagination={false}
          dataSource={lines}
          onRow={(row) => ({ "data-testid": `month-line-${row.key}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { key: "label", dataIndex: "label", title: t("monthStatement.item") },
            { key: "usage", dataIndex: "usage", title: t("monthStatement.usage"), ...right },
            {
              key: "amount",
              dataIndex: "amount",
              title: t("monthStatement.amount"),
              ...right,
              render: (value: string) => <span data-testid="amount">{value}</span>,
            },
          ]}
          data-testid="month-statement-lines"
        />
      </ScrollRegion>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t("monthStatement.accountList")}
      </Typography.Title>
      <ScrollRegion label={t("monthStatement.accountList")}>
        <Table<AccountMonth>
          rowKey="accountId"
          size="small"
          dataSource={page.records}
          pagination={{
            current: page.current,
            pageSize: page.size,
            total: page.total,
            showSizeChanger: true,
            onChange: onPage,
          }}
          columns={[
            {
              key: "ownerName",
              dataIndex: "ownerName",
              title: t("monthStatement.owner"),
              className: "ml-nowrap",
            },
            {
              key: "roomName",
              dataIndex: "roomName",
              title: t("monthStatement.room"),
              className: "ml-nowrap",
            },
            {
              key: "energyType",
              title: t("monthStatement.energyType"),
              className: "ml-nowrap",
              render: (_, row) => t(`monthStatement.energy.${row.energyType}` as MessageKey),
            },
            {
              key: "productCode",
              dataIndex: "productCode",
              title: t("monthStatement.meter"),
              className: "ml-nowrap",
            },
            money("openingBalance", "monthStatement.opening"),
            money("recharge", "monthStatement.recharge"),
            money("refund", "monthStatement.refund"),
            money("usage", "monthStatement.usage"),
            money("usageCharge", "monthStatement.usageCharge"),
            money("fee", "monthStatement.fee"),
            money("apportion", "monthStatement.apportion"),
            money("closingBalance", "monthStatement.closing"),
          ]}
          data-testid="month-statement-accounts"
        />
      </ScrollRegion>
    </Card>
  );
}
