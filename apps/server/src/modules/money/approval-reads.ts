import { fenToYuan } from "@meterline/billing";
import { formatDateTime } from "../../contract/dates.ts";
import type { Queryable } from "../../db/client.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import { meterCodeJoin } from "./account.repository.ts";
import { CLOSE_TABLE } from "./closing-approval.ts";

/**
 * What an approver reads of a held operation (the MoneyApproval handle and detail pages): what
 * leaves which account, whose it is and where, who asked and why, and where it stands. `kind`
 * says which operation: a refund or correction minus at the counter, a WeChat Pay refund, or a
 * closing's refund.
 */
export interface ApprovalRequest {
  kind: "refund" | "correction" | "wxRefund" | "closing" | "apportionment";
  processInstanceId: string;
  amount: string;
  accountId: string;
  energyType: number;
  productCode: string;
  balance: string;
  ownerName: string;
  phone: string;
  roomName: string;
  requester: string;
  requestTime: string;
  reason: string;
  /** 3 waiting; 1 booked (closed); 4 rejected, with the note. */
  state: number;
  approvalNote: string;
  /** The counter's receipt number of a refund or correction ("" for a closing). */
  receiptNo: string;
  /** The recharge row of a refund or correction (its receipt is reprinted from 充值记录). */
  rechargeId: string;
}

interface RequestRow {
  kind: ApprovalRequest["kind"];
  amount: string;
  account_id: string;
  energy_type: number;
  product_code: string | null;
  balance: string;
  owner_name: string | null;
  phone: string | null;
  room_name: string | null;
  operator: string;
  create_time: Date;
  reason: string;
  state: number;
  approval_note: string | null;
  receipt_no: string;
  recharge_id: string;
}

const ACCOUNT_PART = `a.id::text as account_id, a.energy_type, m.product_code, a.balance::text as balance,
  o.owner_name, o.phone, ${roomLabelSql("rr")} as room_name`;
const ACCOUNT_JOINS = `left join pms_owner o on o.id = a.owner_id
  left join pms_room rr on rr.id = a.room_id
  ${meterCodeJoin("a", "m")}`;

/** The held operation an approval instance was started for, in the tenant; undefined if none. */
export async function approvalRequest(
  db: Queryable,
  tenantId: string,
  processInstanceId: string,
  timeZone: string,
): Promise<ApprovalRequest | undefined> {
  const [row] = await db.query<RequestRow>(
    `select case when exists (select 1 from pms_wx_refund w where w.recharge_id = r.id and w.tenant_id = r.tenant_id)
                   then 'wxRefund' when r.recharge_type = 4 then 'correction' else 'refund' end as kind,
            r.amount::text as amount, ${ACCOUNT_PART}, r.operator, r.create_time, r.remark as reason, r.state,
            r.approval_note, r.receipt_no, r.id::text as recharge_id
       from pms_recharge r join pms_account a on a.id = r.account_id and a.tenant_id = r.tenant_id
       ${ACCOUNT_JOINS}
      where r.tenant_id = $1 and r.approval_instance_id = $2
     union all
     select 'closing', h.amount::text, ${ACCOUNT_PART}, h.operator, h.create_time, '销户退款', h.state,
            h.approval_note, '', ''
       from ${CLOSE_TABLE} h join pms_account a on a.id = h.account_id and a.tenant_id = h.tenant_id
       ${ACCOUNT_JOINS}
      where h.tenant_id = $1 and h.approval_instance_id = $2
     union all
     -- A node's month of 公摊: many rooms' accounts, so the node stands where one account would.
     select 'apportionment', ar.total_amount::text, '', ar.energy_type, null, '0', null, null, n.node_title,
            ar.creator, ar.create_time, '公摊 ' || ar.month || ' ' || coalesce(n.node_title, ''),
            case ar.state when 1 then 3 when 3 then 4 else 1 end, ar.reject_reason, '', ''
       from pms_apportionment_run ar
       left join pms_metering_node n on n.id = ar.node_id and n.tenant_id = ar.tenant_id
      where ar.tenant_id = $1 and ar.approval_instance_id = $2
      limit 1`,
    [tenantId, processInstanceId],
  );
  if (!row) return undefined;
  return {
    kind: row.kind,
    processInstanceId,
    amount: fenToYuan(BigInt(row.amount)),
    accountId: row.account_id,
    energyType: row.energy_type,
    productCode: row.product_code ?? "",
    balance: fenToYuan(BigInt(row.balance)),
    ownerName: row.owner_name ?? "",
    phone: row.phone ?? "",
    roomName: row.room_name ?? "",
    requester: row.operator,
    requestTime: formatDateTime(row.create_time, timeZone),
    reason: row.reason,
    state: row.state,
    approvalNote: row.approval_note ?? "",
    receiptNo: row.receipt_no,
    rechargeId: row.recharge_id,
  };
}
