import { type Row, serverMessageOf } from "@meterline/api-client";
import type { SwitchOutcome, TreeNode } from "@meterline/contracts";
import { api } from "../../../../app/api.ts";
import type { Energy } from "../switch-calls.ts";

const pms = "/api/blade-pms";

/** An opened account as message/openAccount answers it (balance in yuan). */
export interface OpenedAccount {
  accountId: string;
  meterId: string;
  balance: string;
}

/** A closing as message/closeAccount answers it: what was paid back, or what is left owing (yuan). */
export interface ClosedAccount {
  accountId: string;
  meterId: string;
  refunded: string;
  debt: string;
  /**
   * 1 closed; 0 a local-prepaid meter is being cleared first: refund and closing follow its
   * confirmation; 3 the refund waits for approval (processInstanceId), the account still open.
   */
  state?: 0 | 1 | 3;
  processInstanceId?: string;
}

export type AccountVerb = "open" | "close";

/** A deposit of nothing: empty, or zero in any spelling ("0", "0.00"). */
export const isZero = (deposit: string) => /^0*(\.0*)?$/.test(deposit.trim());

/** A deposit as the server takes it: yuan with at most two decimals, below a billion. */
export const DEPOSIT_PATTERN = /^\d{1,9}(\.\d{1,2})?$/;

const paths: Record<AccountVerb, Record<Energy, string>> = {
  open: { electric: "message/openAccount", water: "waterparam/openAccount" },
  close: { electric: "message/closeAccount", water: "waterparam/overAccountBatch" },
};

/** The button codes of the operations (seed 015); a user without one never sees its button. */
export const accountPermission: Record<AccountVerb, Record<Energy, string>> = {
  open: { electric: "meter_open_account", water: "water_open_account" },
  close: { electric: "meter_close_account", water: "water_close_account" },
};

/**
 * Opens the meters' accounts with the same deposit each (none when empty: the server takes only
 * deposits above zero), all or nothing (a single meter: several would be a batch job). Silent: the caller shows the server's reason beside the
 * meters it concerns.
 */
export const openAccounts = (
  energy: Energy,
  meterIds: readonly string[],
  deposit: string,
  /** PAYMENT_METHOD of the deposit (the server takes cash when not said). */
  paymentMethod?: string,
) =>
  api
    .request(`${pms}/${paths.open[energy]}`, {
      method: "POST",
      body: {
        meterIds: meterIds.join(","),
        ...(isZero(deposit) ? {} : { deposit, ...(paymentMethod ? { paymentMethod } : {}) }),
      },
      silent: true,
    })
    .then((answer) => (answer as { data: OpenedAccount[] }).data);

/** Closes the meters' accounts: settled to the last reading, the balance refunded or the debt recorded. */
export const closeAccounts = (
  energy: Energy,
  meterIds: readonly string[],
  /** Supply is cut on closing unless kept on, which needs a reason. */
  supply?: { keep: boolean; reason: string },
) =>
  api
    .request(`${pms}/${paths.close[energy]}`, {
      method: "POST",
      body: {
        meterIds: meterIds.join(","),
        ...(supply?.keep ? { keepSupply: "1", keepSupplyReason: supply.reason } : {}),
      },
      silent: true,
    })
    .then((answer) => (answer as { data: ClosedAccount[] }).data);

/** A batch's answer: the job that works its meters, or (one meter) the server's words once done. */
export interface AccountBatchAnswer {
  said: string;
  jobId?: string;
  skipped?: SwitchOutcome["skipped"];
}

/**
 * Opens or closes a batch of meters' accounts (the same deposit each when opening). Several meters
 * become a batch job on the server; one meter is opened or closed in the call, as from its row.
 */
export async function submitAccounts(
  verb: AccountVerb,
  energy: Energy,
  meterIds: readonly string[],
  deposit: string,
): Promise<AccountBatchAnswer> {
  const answer = await api.request(`${pms}/${paths[verb][energy]}`, {
    method: "POST",
    body: {
      meterIds: meterIds.join(","),
      ...(verb === "open" && !isZero(deposit) ? { deposit } : {}),
    },
    silent: true,
  });
  const data = (answer as { data: unknown }).data;
  const said = serverMessageOf(answer);
  if (data && typeof data === "object" && "jobId" in data) {
    const job = data as SwitchOutcome & { jobId: string };
    return { said, jobId: job.jobId, skipped: job.skipped };
  }
  return { said };
}

/** A registry tree node: `type` says what it stands for, `selectable` marks the meters. */
export interface MeterTreeNode extends TreeNode {
  type: string;
  selectable: boolean;
  children?: MeterTreeNode[];
}

/**
 * The area / room / meter tree of the meters that can be opened or closed. Electric meters have their
 * own trees; water meters come from the combined opening tree and the closing tree's water variant.
 */
export function loadAccountTree(verb: AccountVerb, energy: Energy): Promise<MeterTreeNode[]> {
  if (verb === "open")
    return api.get<MeterTreeNode[]>(
      `${pms}/meter/${energy === "electric" ? "treeOpenAccount" : "treeOpenAccountNew"}`,
    );
  return api.get<MeterTreeNode[]>(
    `${pms}/meter/treeCloseAccount`,
    energy === "water" ? { energyType: "2" } : {},
  );
}

/** What closing a meter's account would settle (account/closePreview), before the operator confirms. */
export interface ClosingPreview {
  accountId: string;
  productCode: string;
  ownerName: string;
  roomName: string;
  /** 1 the server keeps the balance: closing cuts supply unless kept on. */
  controlStatus: 0 | 1;
  lastReading: string;
  finalReading: string;
  finalReadTime: string;
  usage: string;
  usageCharge: string;
  balanceBefore: string;
  balance: string;
  refund: string;
  debt: string;
  switchStatus: number;
}

export const closingPreview = (energy: Energy, meterId: string) =>
  api.get<ClosingPreview>(`${pms}/account/closePreview`, {
    meterId,
    energyType: energy === "water" ? "2" : "1",
  });

/** An account's opening or closing as 开户记录 / 销户记录 list it (the row a receipt is printed from). */
export const accountOperation = (verb: AccountVerb, accountId: string) =>
  api.get<Row>(`${pms}/${verb === "open" ? "dataopenaccount" : "datacloseaccount"}/detail`, {
    id: accountId,
  });
