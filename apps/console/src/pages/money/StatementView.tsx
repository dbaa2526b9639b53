import type { Row } from "@meterline/api-client";
import {
  Card,
  Col,
  Descriptions,
  Empty,
  Row as GridRow,
  Spin,
  Statistic,
  Table,
  Typography,
  theme,
} from "antd";
import dayjs from "dayjs";
import { lazy, Suspense } from "react";
import { useI18n } from "../../i18n/index.tsx";
import type { Statement, StatementDay } from "./money-calls.ts";
import { moneyFilterDef } from "./money-filters.ts";
import { useDictionaryLabel } from "./money-labels.ts";
import { ScrollRegion } from "./ScrollRegion.tsx";

const BalanceLineChart = lazy(() => import("../../components/charts/BalanceLineChart.tsx"));

const fields = moneyFilterDef.fields;

/**
 * The statement itself, the part that prints: the account, opening and closing balances, the
 * balance line, each closed day with its totals row, and the period's recharges.
 */
export function StatementView({ statement }: { statement: Statement }) {
  const { t } = useI18n();
  const { token } = theme.useToken();
  const energy = useDictionaryLabel(fields.energyType);
  const rechargeType = useDictionaryLabel(fields.rechargeType);
  const method = useDictionaryLabel(fields.paymentMethod);
  const { account, days, totals } = statement;
  const unit = account.energyType === 2 ? "m³" : "kWh";
  const dash = (value: string | null) => value ?? "-";

  const money = (key: keyof StatementDay, title: string) => ({
    key,
    dataIndex: key,
    title,
    align: "right" as const,
    className: "ml-nowrap",
  });
  const dayColumns = [
    { key: "day", dataIndex: "day", title: t("statement.day"), className: "ml-nowrap" },
    money("usage", `${t("statement.usage")} (${unit})`),
    money("usageCharge", t("statement.usageCharge")),
    money("fee", t("statement.fee")),
    money("credit", t("statement.credit")),
    money("debit", t("statement.debit")),
    money("closingBalance", t("statement.dayClosing")),
  ];
  const totalCells = [
    totals.usage,
    totals.usageCharge,
    totals.fee,
    totals.credit,
    totals.debit,
    dash(statement.closingBalance),
  ];

  return (
    <Card id="ml-statement" className="ml-statement-print" data-testid="statement">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t("statement.title")}
      </Typography.Title>
      <Descriptions
        size="small"
        column={{ xs: 1, md: 3 }}
        items={[
          { key: "owner", label: t("moneyList.owner"), children: account.ownerName },
          { key: "room", label: t("moneyList.room"), children: account.roomName || "-" },
          { key: "energy", label: t("moneyList.energyType"), children: energy(account.energyType) },
          { key: "meter", label: t("moneyList.meterNo"), children: account.productCode },
          { key: "period", label: t("statement.period"), children: `${statement.from} ~ ${statement.to}` },
          { key: "current", label: t("statement.current"), children: account.balance },
        ]}
      />
      <GridRow gutter={[16, 16]} style={{ margin: "12px 0" }}>
        <Col xs={12} md={6}>
          <Statistic
            title={t("statement.opening")}
            value={dash(statement.openingBalance)}
            data-testid="statement-opening"
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t("statement.closing")}
            value={dash(statement.closingBalance)}
            data-testid="statement-closing"
          />
        </Col>
      </GridRow>
      {days.length === 0 ? (
        <Empty description={t("statement.noDays")} data-testid="statement-no-days" />
      ) : (
        <>
          <Typography.Title level={5}>{t("statement.balanceTrend")}</Typography.Title>
          <Suspense fallback={<Spin />}>
            <BalanceLineChart
              points={days.map((d) => ({ label: d.day.slice(5), value: d.closingBalance }))}
              unit={t("statement.yuan")}
              color={token.colorPrimary}
              textColor={token.colorTextSecondary}
              summary={t("statement.balanceSummary", {
                from: statement.from,
                to: statement.to,
                opening: dash(statement.openingBalance),
                closing: dash(statement.closingBalance),
              })}
              testId="statement-chart"
            />
          </Suspense>
          <ScrollRegion label={t("statement.title")}>
            <Table<StatementDay>
              rowKey="day"
              size="small"
              pagination={false}
              dataSource={days}
              columns={dayColumns}
              data-testid="statement-days"
              summary={() => (
                <Table.Summary.Row data-testid="statement-totals">
                  <Table.Summary.Cell index={0} className="ml-nowrap">
                    <Typography.Text strong>{t("moneyList.totals")}</Typography.Text>
                  </Table.Summary.Cell>
                  {totalCells.map((value, i) => (
                    <Table.Summary.Cell
                      key={dayColumns[i + 1]?.key}
                      index={i + 1}
                      align="right"
                      className="ml-nowrap"
                    >
                      <Typography.Text strong>{value}</Typography.Text>
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              )}
            />
          </ScrollRegion>
        </>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t("statement.recharges")}
      </Typography.Title>
      <ScrollRegion label={t("statement.recharges")}>
        <Table<Row>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={statement.recharges}
          locale={{ emptyText: <Empty description={t("statement.noRechargesInPeriod")} /> }}
          columns={[
            {
              key: "receiptNo",
              dataIndex: "receiptNo",
              title: t("moneyList.receiptNo"),
              className: "ml-nowrap",
            },
            {
              key: "createTime",
              dataIndex: "createTime",
              title: t("moneyList.createTime"),
              className: "ml-nowrap",
            },
            {
              key: "rechargeType",
              title: t("moneyList.rechargeType"),
              className: "ml-nowrap",
              render: (_, row) => rechargeType(row.rechargeType),
            },
            {
              key: "paymentMethod",
              title: t("moneyList.paymentMethod"),
              className: "ml-nowrap",
              render: (_, row) => method(row.paymentMethod),
            },
            {
              key: "amount",
              dataIndex: "amount",
              title: t("moneyList.amount"),
              align: "right",
              className: "ml-nowrap",
            },
            {
              key: "operator",
              dataIndex: "operator",
              title: t("moneyList.operator"),
              className: "ml-nowrap",
            },
          ]}
        />
      </ScrollRegion>
      <Typography.Text type="secondary" className="ml-print-only">
        {t("statement.printedAt", { time: dayjs().format("YYYY-MM-DD HH:mm") })}
      </Typography.Text>
    </Card>
  );
}
