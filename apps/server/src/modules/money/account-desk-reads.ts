import { fromUnits } from "@meterline/billing";
import { formatDateTime } from "../../contract/dates.ts";

/** What the desk recorded on an account's opening and closing (migration 042), as read from `a`. */
export interface AccountDeskRow {
  deposit_method: number | null;
  close_reading: string | null;
  close_read_time: Date | null;
  close_supply: number | null;
  close_supply_reason: string | null;
  /** The state of the closing's supply cut (pms_meter_command.state) while and after it settles. */
  close_supply_state: string | null;
}

/** The columns of AccountDeskRow in a select over pms_account `a`. */
export const ACCOUNT_DESK_COLUMNS = `a.deposit_method, a.close_reading::text as close_reading, a.close_read_time,
  a.close_supply, a.close_supply_reason,
  (select c.state from pms_meter_command c
    where c.tenant_id = a.tenant_id and c.batch_id = a.close_supply_batch limit 1) as close_supply_state`;

/**
 * The desk's fields of an opening (the deposit's payment method) or a closing (the final reading it
 * was settled to, and supply: cut with the cut command's state, kept on with the reason, or none).
 */
export function accountDeskFields(row: AccountDeskRow, closing: boolean, timeZone: string) {
  if (!closing) return { paymentMethod: row.deposit_method ?? "" };
  return {
    finalReading: row.close_reading === null ? "" : fromUnits(BigInt(row.close_reading), 2),
    finalReadTime: row.close_read_time ? formatDateTime(row.close_read_time, timeZone) : "",
    closeSupply: row.close_supply ?? "",
    closeSupplyReason: row.close_supply_reason ?? "",
    closeSupplyState: row.close_supply_state ?? "",
  };
}
