import type { QueryParams, Row } from "@meterline/api-client";
import type { TableColumnsType } from "antd";
import { Button, Card, Form, Input, InputNumber, Radio, Select, Space, Tooltip } from "antd";
import { type ReactNode, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { startDownload } from "../../../app/download.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { PagedRows } from "../../../components/PagedRows.tsx";
import { headerWidth, textWidth, totalWidth } from "../../../crud/column-sizing.ts";
import { indexColumn } from "../../../crud/columns.tsx";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { linkedCell } from "../../detail/detail-links.tsx";
import { SupplyTag } from "../../money/counter/SupplyTag.tsx";
import { useMoneyPage } from "../../money/useMoneyPage.ts";
import "../../../crud/table.css";
import { attentionExportHref, attentionPagePath, remindOwners } from "./attention-calls.ts";

const PAD = 24;
const DEFAULT_DAYS = 7;

interface Filters {
  mode: "level" | "cut";
  days?: number | null;
  energyType?: string;
  alarmLevel?: string;
  keyword?: string;
}

const INITIAL: Filters = { mode: "level", days: DEFAULT_DAYS };

/** The server's query for the form's values: the cut list names its days, the level list its level. */
function queryOf(values: Filters): QueryParams {
  const cut = values.mode === "cut";
  return {
    cutWithinDays: cut ? String(values.days ?? DEFAULT_DAYS) : undefined,
    alarmLevel: cut ? undefined : values.alarmLevel,
    energyType: values.energyType,
    keyword: values.keyword?.trim() || undefined,
  };
}

/**
 * 待关注账户 (运行控制): the accounts at a balance alarm level, or whose supply is cut within N days
 * at their recent pace, each with room, owner and phone to call, its balance, the recent daily
 * charge and the days until it runs out and until the cut. Rows can be ticked; 短信提醒 sends the
 * owners of the ticked rows (or of the whole list) one balance reminder each, 导出 writes the list.
 */
export default function AttentionPage() {
  const t = useT();
  const { message, modal } = useFeedback();
  const permission = useConsole((state) => state.permission);
  const [form] = Form.useForm<Filters>();
  const mode = Form.useWatch("mode", form) ?? INITIAL.mode;
  const [query, setQuery] = useState<QueryParams>(() => queryOf(INITIAL));
  const [ticked, setTicked] = useState<string[]>([]);
  const page = useMoneyPage(attentionPagePath, query);
  const { rows, current, size } = page;

  const search = (values: Filters) => {
    setTicked([]);
    setQuery(queryOf({ ...INITIAL, ...values }));
  };

  const remind = () => {
    const count = ticked.length;
    modal.confirm({
      title: count > 0 ? t("attention.remindTickedTitle", { count }) : t("attention.remindAllTitle"),
      content: t("attention.remindNote"),
      okButtonProps: { "data-testid": "attention-remind-ok" },
      onOk: async () => {
        try {
          const outcome = await remindOwners(query, ticked);
          message.success(t("attention.reminded", { ...outcome }));
        } catch (failure) {
          // Server refusals were toasted by the API bridge.
          reportNetworkError(failure);
        }
      },
    });
  };

  const days = (value: unknown) => {
    if (value === null || value === undefined) return t("attention.unknown");
    return Number(value) === 0 ? t("attention.now") : t("attention.inDays", { days: Number(value) });
  };
  const columns: TableColumnsType<Row> = (() => {
    // Rooms, phones and meter numbers read whole: each column is as wide as its widest value.
    const whole = (title: string, text: (row: Row) => string) =>
      Math.max(headerWidth(title), ...rows.map((row) => textWidth(text(row)) + PAD));
    const column = (
      key: string,
      title: MessageKey,
      text: (row: Row) => string,
      render?: (row: Row) => ReactNode,
    ) => ({
      key,
      title: t(title),
      className: "ml-nowrap",
      width: whole(t(title), text),
      render: (_: unknown, row: Row) => (render ? render(row) : text(row)),
    });
    const field = (key: string) => (row: Row) => String(row[key] ?? "");
    return [
      indexColumn(current, size, t("crud.index")),
      column("roomName", "attention.room", field("roomName"), (row) =>
        linkedCell("attention", "roomName", row, String(row.roomName ?? "")),
      ),
      column("ownerName", "attention.owner", field("ownerName"), (row) =>
        linkedCell("attention", "ownerName", row, String(row.ownerName ?? "")),
      ),
      column("phone", "attention.phone", field("phone")),
      column("energyType", "attention.energyType", (row) =>
        t(Number(row.energyType) === 2 ? "attention.water" : "attention.electric"),
      ),
      column("productCode", "attention.meter", field("productCode"), (row) =>
        linkedCell("attention", "productCode", row, String(row.productCode ?? "")),
      ),
      { ...column("balance", "attention.balance", field("balance")), align: "right" as const },
      column("alarmLevel", "attention.level", (row) =>
        t(`attention.levelName.${Number(row.alarmLevel)}` as MessageKey),
      ),
      {
        ...column("dailyCharge", "attention.daily", (row) =>
          String(row.dailyCharge ?? t("attention.unknown")),
        ),
        align: "right" as const,
        title: (
          <Tooltip title={t("attention.dailyHint", { days: 7 })}>
            <span>{t("attention.daily")}</span>
          </Tooltip>
        ),
      },
      column("daysUntilEmpty", "attention.daysUntilEmpty", (row) => days(row.daysUntilEmpty)),
      column("daysUntilCut", "attention.daysUntilCut", (row) => days(row.daysUntilCut)),
      column(
        "switchStatus",
        "attention.supply",
        (row) => (row.switchStatus === null ? "" : t(`counter.supply.${Number(row.switchStatus) as 0 | 1}`)),
        (row) =>
          row.switchStatus === null || row.switchStatus === undefined ? null : (
            <SupplyTag status={Number(row.switchStatus) === 1 ? 1 : 0} />
          ),
      ),
    ];
  })();

  return (
    <Card data-testid="attention">
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <Form<Filters>
          form={form}
          layout="inline"
          name="attentionSearch"
          initialValues={INITIAL}
          onFinish={search}
          onReset={() => search(INITIAL)}
          style={{ rowGap: 12 }}
        >
          <Form.Item name="mode" label={t("attention.mode")}>
            <Radio.Group
              optionType="button"
              data-testid="attention-mode"
              options={[
                { value: "level", label: t("attention.mode.level") },
                { value: "cut", label: t("attention.mode.cut") },
              ]}
            />
          </Form.Item>
          {mode === "cut" ? (
            <Form.Item name="days" label={t("attention.days")}>
              <InputNumber
                min={0}
                max={365}
                precision={0}
                style={{ width: 150 }}
                suffix={t("attention.daysSuffix")}
                data-testid="attention-days"
              />
            </Form.Item>
          ) : (
            <Form.Item name="alarmLevel" label={t("attention.level")}>
              <Select
                allowClear
                style={{ width: 150 }}
                placeholder={t("attention.all")}
                data-testid="attention-level"
                options={[1, 2, 3].map((level) => ({
                  value: String(level),
                  label: t(`attention.levelName.${level}` as MessageKey),
                }))}
              />
            </Form.Item>
          )}
          <Form.Item name="energyType" label={t("attention.energyType")}>
            <Select
              allowClear
              style={{ width: 110 }}
              placeholder={t("attention.all")}
              data-testid="attention-energy"
              options={[
                { value: "1", label: t("attention.electric") },
                { value: "2", label: t("attention.water") },
              ]}
            />
          </Form.Item>
          <Form.Item name="keyword" label={t("attention.keyword")}>
            <Input
              allowClear
              style={{ width: 220 }}
              placeholder={t("attention.keywordHint")}
              data-testid="attention-keyword"
            />
          </Form.Item>
          <Form.Item>
            <Space wrap>
              <Button type="primary" htmlType="submit" data-testid="attention-search">
                {t("attention.search")}
              </Button>
              <Button htmlType="reset">{t("attention.reset")}</Button>
              {permission.attention_export && (
                <Button
                  onClick={() => startDownload(attentionExportHref(query))}
                  data-testid="attention-export"
                >
                  {t("attention.export")}
                </Button>
              )}
              {permission.attention_remind && (
                <Button onClick={remind} disabled={rows.length === 0} data-testid="attention-remind">
                  {ticked.length > 0
                    ? t("attention.remindTicked", { count: ticked.length })
                    : t("attention.remind")}
                </Button>
              )}
            </Space>
          </Form.Item>
        </Form>
        <PagedRows
          page={page}
          columns={columns}
          empty={t("attention.empty")}
          errorTestId="attention-error"
          // A scrolling region rather than the table's own scroll: antd's scroll adds a hidden
          // measuring row that would carry a copy of the selection checkbox (axe: aria-hidden-focus).
          wrap={(table) => (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard.
            <section className="crud-scroll-region" tabIndex={0} aria-label={t("menu.attention")}>
              {table}
            </section>
          )}
          table={{
            size: "middle",
            tableLayout: "fixed",
            style: { minWidth: totalWidth(columns, 48) },
            rowSelection: permission.attention_remind
              ? {
                  selectedRowKeys: ticked,
                  onChange: (keys) => setTicked(keys.map(String)),
                  preserveSelectedRowKeys: true,
                }
              : undefined,
          }}
        />
      </Space>
    </Card>
  );
}
