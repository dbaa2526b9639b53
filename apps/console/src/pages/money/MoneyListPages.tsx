import type { Row } from "@meterline/api-client";
import { Button, Space } from "antd";
import { type ReactNode, useState } from "react";
import { useNavigate } from "react-router";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { type MessageKey, useI18n } from "../../i18n/index.tsx";
import { findLeaf } from "../../layout/menu-model.ts";
import { useConsole } from "../../store/useConsole.ts";
import { useClosingSupplyText } from "./counter/closing-supply-text.ts";
import { methodLabel, usePaymentMethods } from "./counter/payment-methods.ts";
import { AccountReprintButton, ReprintButton } from "./counter/ReprintButton.tsx";
import { closingSupplyOf } from "./counter/receipt-data.ts";
import { type MoneyColumn, MoneyTable, type Totals } from "./MoneyTable.tsx";
import { closePayment, moneyLists, removePayments } from "./money-calls.ts";
import { moneyFilterDef } from "./money-filters.ts";
import {
  channelLabel,
  paymentStateLabel,
  rechargeStateLabel,
  removablePayment,
  useDictionaryLabel,
} from "./money-labels.ts";
import { PaymentDetailDialog } from "./PaymentDetailDialog.tsx";
import { PaymentConfirmDialog } from "./payments/PaymentConfirmDialog.tsx";
import { PaymentOrderDialog } from "./payments/PaymentOrderDialog.tsx";

const STATEMENT_PATH = "/money/statement";
const fields = moneyFilterDef.fields;

/** Opens an account's statement, when the user has the statement screen. */
function useStatementLink(): ((accountId: string, tenantId?: string) => void) | undefined {
  const navigate = useNavigate();
  const menus = useConsole((state) => state.menus);
  const menuAll = useConsole((state) => state.menuAll);
  const has = Boolean(findLeaf(menuAll, STATEMENT_PATH) ?? findLeaf(menus ?? [], STATEMENT_PATH));
  return has
    ? (accountId, tenantId) =>
        navigate(
          `${STATEMENT_PATH}?accountId=${encodeURIComponent(accountId)}${
            tenantId ? `&tenantId=${encodeURIComponent(tenantId)}` : ""
          }`,
        )
    : undefined;
}

/** A row's tenant (every money row names it), for the calls the platform administrator makes on it. */
const rowTenant = (row: Row) => (typeof row.tenantId === "string" ? row.tenantId : undefined);

/** Several sums in one totals cell, one a line. */
function TotalsLines({ lines }: { lines: string[] }) {
  return (
    <Space orientation="vertical" size={0}>
      {lines.map((line) => (
        <span key={line}>{line}</span>
      ))}
    </Space>
  );
}

/** Labels of the dictionaries the lists show by name. */
function useMoneyDictionaries() {
  return {
    energy: useDictionaryLabel(fields.energyType),
    rechargeType: useDictionaryLabel(fields.rechargeType),
    method: useDictionaryLabel(fields.paymentMethod),
    control: useDictionaryLabel(fields.controlStatus),
  };
}

/** 充值记录: recharges, refunds and corrections, with money in and out of the whole search. */
export function RechargesPage() {
  const { t } = useI18n();
  const names = useMoneyDictionaries();
  const columns: MoneyColumn[] = [
    { key: "receiptNo", title: t("moneyList.receiptNo"), kind: "id" },
    { key: "createTime", title: t("moneyList.createTime"), kind: "id" },
    { key: "ownerName", title: t("moneyList.owner") },
    { key: "phone", title: t("moneyList.phone"), kind: "id" },
    { key: "roomName", title: t("moneyList.room") },
    { key: "energyType", title: t("moneyList.energyType"), render: (row) => names.energy(row.energyType) },
    { key: "productCode", title: t("moneyList.meterNo"), kind: "id" },
    {
      key: "rechargeType",
      title: t("moneyList.rechargeType"),
      render: (row) => names.rechargeType(row.rechargeType),
    },
    {
      key: "paymentMethod",
      title: t("moneyList.paymentMethod"),
      render: (row) => names.method(row.paymentMethod),
    },
    { key: "amount", title: t("moneyList.amount"), kind: "money" },
    { key: "balanceAfter", title: t("moneyList.balanceAfter"), kind: "money" },
    { key: "state", title: t("moneyList.state"), render: (row) => rechargeStateLabel(t, row.state) },
    { key: "operator", title: t("moneyList.operator") },
    { key: "remark", title: t("moneyList.remark"), cut: true },
  ];
  // Recharges taken, refunds paid back and the net apart (a refund is not income); corrections only
  // when the search holds any, as they are neither.
  const totalsParts = (totals: Totals): string[] => {
    const parts = [
      `${t("moneyList.income")} ${String(totals.income ?? "0.00")}`,
      `${t("moneyList.refundTotal")} ${String(totals.refund ?? "0.00")}`,
      `${t("moneyList.net")} ${String(totals.net ?? "0.00")}`,
    ];
    const correction = String(totals.correction ?? "0.00");
    if (!/^-?0\.00$/.test(correction)) parts.push(`${t("moneyList.correction")} ${correction}`);
    return parts;
  };
  const totalsCells = (totals: Totals): Record<string, ReactNode> => ({
    amount: <TotalsLines lines={totalsParts(totals)} />,
  });
  return (
    <MoneyTable
      name="recharges"
      title={t("menu.dataRecharge")}
      calls={moneyLists.recharges}
      filters={[
        "areaId",
        "roomId",
        "ownerName",
        "phone",
        "productCode",
        "receiptNo",
        "energyType",
        "rechargeType",
        "paymentMethod",
        "period",
      ]}
      columns={columns}
      totalsCells={totalsCells}
      totalsLine={(totals) => totalsParts(totals).join(" · ")}
      // 补打: only a booked operation has a receipt; pending, failed or refused ones never had one.
      rowActions={(row) => (String(row.state) === "1" ? <ReprintButton row={row} /> : null)}
    />
  );
}

/**
 * 支付记录: money received by method and channel. `payment_add` takes an unpaid order for an account
 * (新增支付单), confirms an unpaid or failed one with its transaction number, which books its
 * recharge once (确认到账), and closes an unpaid one that will never be paid; unpaid or failed
 * payments may be removed.
 */
export function PaymentsPage() {
  const { t } = useI18n();
  const { message, modal } = useFeedback();
  const names = useMoneyDictionaries();
  const canRemove = useConsole((state) => Boolean(state.permission.payment_delete));
  const canTake = useConsole((state) => Boolean(state.permission.payment_add));
  const [shown, setShown] = useState<{ id: string; tenantId?: string } | null>(null);
  const [ordering, setOrdering] = useState<{ reload: () => Promise<void> } | null>(null);
  const [confirming, setConfirming] = useState<{ row: Row; reload: () => Promise<void> } | null>(null);
  const columns: MoneyColumn[] = [
    { key: "transactionNo", title: t("moneyList.transactionNo"), kind: "id" },
    { key: "createTime", title: t("moneyList.createTime"), kind: "id" },
    { key: "paidTime", title: t("moneyList.payTime"), kind: "id" },
    { key: "ownerName", title: t("moneyList.owner") },
    { key: "phone", title: t("moneyList.phone"), kind: "id" },
    { key: "roomName", title: t("moneyList.room") },
    { key: "productCode", title: t("moneyList.meterNo"), kind: "id" },
    { key: "amount", title: t("moneyList.amount"), kind: "money" },
    {
      key: "paymentMethod",
      title: t("moneyList.paymentMethod"),
      render: (row) => names.method(row.paymentMethod),
    },
    { key: "channel", title: t("moneyList.channel"), render: (row) => channelLabel(t, row.channel) },
    { key: "state", title: t("moneyList.state"), render: (row) => paymentStateLabel(t, row.state) },
  ];
  // Sums of the whole search by state: money received, still owed, and attempts that failed.
  const paymentTotals = (totals: Totals) => [
    `${t("moneyList.payment.paid")} ${String(totals.paid ?? "0.00")}`,
    `${t("moneyList.payment.unpaid")} ${String(totals.unpaid ?? "0.00")}`,
    `${t("moneyList.payment.failed")} ${String(totals.failed ?? "0.00")}`,
  ];
  const remove = (row: Row, reload: () => Promise<void>) =>
    modal.confirm({
      title: t("common.tip"),
      content: t("moneyList.removeConfirm"),
      okButtonProps: { "data-testid": "payment-remove-ok" },
      onOk: async () => {
        try {
          await removePayments([String(row.id)], rowTenant(row));
        } catch (failure) {
          // Server refusals were toasted by the API bridge; the row stays.
          reportNetworkError(failure);
          return;
        }
        await reload();
        message.success(t("moneyList.removed"));
      },
    });
  const close = (row: Row, reload: () => Promise<void>) =>
    modal.confirm({
      title: t("common.tip"),
      content: t("payment.closeConfirm"),
      okButtonProps: { "data-testid": "payment-close-ok" },
      onOk: async () => {
        try {
          await closePayment(String(row.id), rowTenant(row));
        } catch (failure) {
          // Server refusals were toasted by the API bridge; the row stays.
          reportNetworkError(failure);
          return;
        }
        await reload();
        message.success(t("payment.closed"));
      },
    });
  return (
    <>
      <MoneyTable
        name="payments"
        title={t("menu.payment")}
        calls={moneyLists.payments}
        filters={[
          "areaId",
          "roomId",
          "ownerName",
          "phone",
          "productCode",
          "paymentMethod",
          "state",
          "channel",
          "period",
        ]}
        columns={columns}
        totalsCells={(totals) => ({ amount: <TotalsLines lines={paymentTotals(totals)} /> })}
        totalsLine={(totals) => paymentTotals(totals).join(" · ")}
        toolbar={(reload) =>
          canTake && (
            <Button type="primary" onClick={() => setOrdering({ reload })} data-testid="payment-order">
              {t("payment.order")}
            </Button>
          )
        }
        rowActions={(row, reload) => (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              onClick={() => setShown({ id: String(row.id), tenantId: rowTenant(row) })}
            >
              {t("moneyList.detail")}
            </Button>
            {canTake && removablePayment(row.state) && (
              <Button
                type="link"
                size="small"
                onClick={() => setConfirming({ row, reload })}
                data-testid="payment-confirm"
              >
                {t("payment.confirm")}
              </Button>
            )}
            {canTake && String(row.state) === "0" && (
              <Button type="link" size="small" onClick={() => close(row, reload)} data-testid="payment-close">
                {t("payment.close")}
              </Button>
            )}
            {canRemove && removablePayment(row.state) && (
              <Button type="link" size="small" danger onClick={() => remove(row, reload)}>
                {t("moneyList.remove")}
              </Button>
            )}
          </Space>
        )}
      />
      {shown && <PaymentDetailDialog {...shown} onClose={() => setShown(null)} />}
      {ordering && (
        <PaymentOrderDialog
          onClose={() => setOrdering(null)}
          onSaved={() => {
            setOrdering(null);
            void ordering.reload();
          }}
        />
      )}
      {confirming && (
        <PaymentConfirmDialog
          row={confirming.row}
          tenantId={rowTenant(confirming.row)}
          onClose={() => setConfirming(null)}
          onConfirmed={() => {
            setConfirming(null);
            void confirming.reload();
          }}
        />
      )}
    </>
  );
}

/** The row button of an opening or closing that shows its account's statement. */
function statementAction(open: ((accountId: string, tenantId?: string) => void) | undefined, label: string) {
  if (!open) return undefined;
  return (row: Row) => (
    <Button type="link" size="small" onClick={() => open(String(row.id), rowTenant(row))}>
      {label}
    </Button>
  );
}

/**
 * An opening's or closing's row actions: 补打 of its receipt, and its statement when the user has that
 * screen. A closing still waiting for its meter, or refused, has paid nothing back: no receipt yet.
 */
function accountActions(statement: ReturnType<typeof statementAction>, closing: boolean) {
  return (row: Row) => (
    <Space size={0}>
      {(!closing || String(row.closeState) === "1") && <AccountReprintButton row={row} closing={closing} />}
      {statement?.(row)}
    </Space>
  );
}

/** Columns both account operation lists share (rows are accounts: the row id is the account's). */
function useAccountColumns(): MoneyColumn[] {
  const { t } = useI18n();
  const names = useMoneyDictionaries();
  return [
    { key: "ownerName", title: t("moneyList.owner") },
    { key: "roomName", title: t("moneyList.room") },
    { key: "energyType", title: t("moneyList.energyType"), render: (row) => names.energy(row.energyType) },
    { key: "productCode", title: t("moneyList.meterNo"), kind: "id" },
    {
      key: "controlStatus",
      title: t("moneyList.controlStatus"),
      render: (row) => names.control(row.controlStatus),
    },
  ];
}

const accountFilters = ["areaId", "roomId", "ownerName", "productCode", "energyType", "period"] as const;

/** 开户记录: account openings with their deposits. */
export function OpeningsPage() {
  const { t } = useI18n();
  const shared = useAccountColumns();
  const statement = useStatementLink();
  const methods = usePaymentMethods();
  const columns: MoneyColumn[] = [
    { key: "openTime", title: t("moneyList.openTime"), kind: "id" },
    ...shared,
    { key: "deposit", title: t("moneyList.deposit"), kind: "money" },
    {
      key: "paymentMethod",
      title: t("moneyList.paymentMethod"),
      // Openings before the method was recorded, and those without a deposit, show none.
      render: (row) =>
        row.paymentMethod === "" || row.paymentMethod == null
          ? ""
          : methodLabel(methods, String(row.paymentMethod)),
    },
    { key: "operator", title: t("moneyList.operator") },
  ];
  return (
    <MoneyTable
      name="openings"
      title={t("menu.dataOpenAccount")}
      calls={moneyLists.openings}
      filters={accountFilters}
      columns={columns}
      rowActions={accountActions(statementAction(statement, t("moneyList.statementLink")), false)}
    />
  );
}

/** 销户记录: account closings with the balance paid back or the debt left. */
export function ClosingsPage() {
  const { t } = useI18n();
  const shared = useAccountColumns();
  const statement = useStatementLink();
  const supplyText = useClosingSupplyText();
  const columns: MoneyColumn[] = [
    { key: "closeTime", title: t("moneyList.closeTime"), kind: "id" },
    ...shared,
    {
      key: "closeState",
      title: t("moneyList.closeState"),
      render: (row) => t(`moneyList.closeState.${String(row.closeState ?? "1")}` as MessageKey),
    },
    { key: "refund", title: t("moneyList.refund"), kind: "money" },
    { key: "debt", title: t("moneyList.debt"), kind: "money" },
    // A local-prepaid meter is cleared before the refund: waiting, refused, or done, in the meter's words.
    { key: "closeOutcome", title: t("moneyList.closeOutcome") },
    { key: "finalReading", title: t("moneyList.finalReading"), kind: "id" },
    {
      key: "closeSupply",
      title: t("moneyList.closeSupply"),
      render: (row) => supplyText(closingSupplyOf(row)),
    },
    { key: "operator", title: t("moneyList.operator") },
  ];
  return (
    <MoneyTable
      name="closings"
      title={t("menu.dataCloseAccount")}
      calls={moneyLists.closings}
      filters={accountFilters}
      columns={columns}
      rowActions={accountActions(statementAction(statement, t("moneyList.statementLink")), true)}
    />
  );
}
