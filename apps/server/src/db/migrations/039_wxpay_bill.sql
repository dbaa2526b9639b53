-- WeChat Pay reconciliation (issue 20): the daily trade bill of a tenant's merchant, compared with
-- the wxpay orders and the ledger. One row per tenant, merchant and China day; re-running a day
-- updates it. Amounts whole fen.
create table pms_wx_bill (
  id bigint primary key,
  tenant_id varchar(12) not null,
  mchid varchar(32) not null,
  bill_date date not null,
  -- balanced (no open difference), differences (some open), failed (not downloaded or refused: see error)
  state varchar(12) not null default 'failed' check (state in ('balanced', 'differences', 'failed')),
  trade_count integer not null default 0,
  success_count integer not null default 0,
  refund_count integer not null default 0,
  settlement_total bigint not null default 0,
  refund_total bigint not null default 0,
  local_count integer not null default 0,
  local_total bigint not null default 0,
  open_count integer not null default 0,
  attempts integer not null default 0,
  downloaded_time timestamptz,
  error varchar(255) not null default '',
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
create unique index pms_wx_bill_day on pms_wx_bill (tenant_id, mchid, bill_date);
create index pms_wx_bill_list on pms_wx_bill (tenant_id, bill_date desc);

-- A difference between the bill and Meterline: wechat_only (paid at WeChat Pay, not booked here),
-- local_only (booked here, absent from the bill), amount (both have it, amounts differ). An open
-- one is replaced when its day is reconciled again; a settled one stays, with who settled it, why,
-- and the ledger entry its settlement booked (none for an acknowledgement).
create table pms_wx_bill_diff (
  id bigint primary key,
  tenant_id varchar(12) not null,
  bill_id bigint not null references pms_wx_bill (id),
  bill_date date not null,
  kind varchar(12) not null check (kind in ('wechat_only', 'local_only', 'amount')),
  out_trade_no varchar(32) not null,
  transaction_id varchar(32) not null default '',
  wx_pay_id bigint,
  wechat_amount bigint,
  local_amount bigint,
  trade_time varchar(32) not null default '',
  state varchar(8) not null default 'open' check (state in ('open', 'settled')),
  -- book (settle the known order), reverse (take the booked recharge back), correct (book the
  -- difference), acknowledge (no money moves)
  action varchar(12) check (action in ('book', 'reverse', 'correct', 'acknowledge')),
  reason varchar(200) not null default '',
  operator varchar(64) not null default '',
  settle_user bigint,
  settle_time timestamptz,
  recharge_id bigint,
  ledger_id bigint,
  create_time timestamptz not null default now()
);
create unique index pms_wx_bill_diff_one on pms_wx_bill_diff (bill_id, kind, out_trade_no);
create index pms_wx_bill_diff_list on pms_wx_bill_diff (tenant_id, bill_date desc, state);
