-- Prepaid money (design.md §5 "Money"): an account per meter, an append-only ledger of every
-- balance change, and the recharges, refunds and corrections operators take. Amounts are whole fen
-- (bigint); usage is in 0.01 kWh or m³ (bigint), as the meters' registers count it.
create table pms_account (
  id bigint primary key,
  tenant_id varchar(12) not null,
  owner_id bigint not null,
  room_id bigint,
  energy_type integer not null check (energy_type in (1, 2)),
  meter_id bigint not null,
  -- CONTROL_STATUS: 0 the meter keeps the balance (local prepaid), 1 the server does (remote control).
  control_status integer not null check (control_status in (0, 1)),
  charging_scheme_id bigint,
  alarm_scheme_id bigint,
  -- 1 open, 2 closed; a meter has at most one open account.
  status integer not null default 1 check (status in (1, 2)),
  balance bigint not null default 0,
  -- ALARM_LEVEL (0 normal, 1 low, 2 severely low, 3 arrears) and ARREAS_STATUS as the balance moves.
  alarm_level integer not null default 0,
  arrears_status integer not null default 0,
  -- Usage priced so far in the current billing cycle, and the registers it was priced up to.
  cycle_key varchar(7),
  cycle_total bigint not null default 0,
  cycle_tip bigint not null default 0,
  cycle_peak bigint not null default 0,
  cycle_peace bigint not null default 0,
  cycle_low bigint not null default 0,
  register_total bigint,
  register_tip bigint,
  register_peak bigint,
  register_peace bigint,
  register_low bigint,
  priced_time timestamptz,
  -- The last month (yyyy-MM) whose fixed fee was booked.
  fee_month varchar(7),
  -- Supply cut for arrears: 0 none, 1 due but held by a protection window until cut_due_time,
  -- 2 cut queued (a recharge above the cut line queues the restore). cut_due_time is also when a
  -- cut or restore the command queue could not take yet is tried again.
  arrears_cut integer not null default 0,
  cut_due_time timestamptz,
  opened_time timestamptz not null default now(),
  closed_time timestamptz,
  open_user bigint,
  close_user bigint,
  update_time timestamptz not null default now()
);
create unique index pms_account_open_meter on pms_account (tenant_id, energy_type, meter_id) where status = 1;
create index pms_account_owner on pms_account (tenant_id, owner_id);
create index pms_account_cut_due on pms_account (cut_due_time) where cut_due_time is not null;

create table pms_ledger (
  id bigint primary key,
  tenant_id varchar(12) not null,
  account_id bigint not null,
  owner_id bigint not null,
  -- LEDGER_TYPE: 1 opening deposit, 2 recharge, 3 refund, 4 correction plus, 5 correction minus,
  -- 6 usage charge, 7 monthly fee, 8 closing refund.
  entry_type integer not null check (entry_type between 1 and 8),
  amount bigint not null,
  balance_after bigint not null,
  recharge_id bigint,
  -- For usage charges: the usage priced (0.01 units) and the day it belongs to.
  usage bigint,
  usage_day date,
  cause varchar(255) not null default '',
  create_user bigint,
  creator varchar(64) not null default '',
  -- The clock when the entry was written, after the account's lock was taken: entries of one account
  -- are in this order whichever server process wrote them.
  create_time timestamptz not null default clock_timestamp()
);
create index pms_ledger_account on pms_ledger (account_id, create_time, id);
create index pms_ledger_tenant_time on pms_ledger (tenant_id, create_time);

-- The ledger is a record, not a table of current values: nothing in it is ever changed or removed.
create function pms_ledger_append_only() returns trigger language plpgsql as $$ begin raise exception 'pms_ledger is append-only'; end $$;
create trigger pms_ledger_no_change before update or delete on pms_ledger for each row execute function pms_ledger_append_only();

create table pms_recharge (
  id bigint primary key,
  tenant_id varchar(12) not null,
  account_id bigint not null,
  owner_id bigint not null,
  energy_type integer not null,
  meter_id bigint not null,
  -- RECHARGE_TYPE: 1 recharge, 2 refund, 3 correction plus, 4 correction minus.
  recharge_type integer not null check (recharge_type between 1 and 4),
  -- PAYMENT_METHOD: 1 cash, 2 UnionPay, 3 WeChat, 4 Alipay, 5 WeChat online, 0 other.
  payment_method integer not null check (payment_method between 0 and 5),
  amount bigint not null check (amount > 0),
  balance_after bigint,
  -- 1 booked; 0 waiting for the meter to confirm a purchase write; 2 the write failed (nothing booked).
  state integer not null default 1,
  ledger_id bigint,
  payment_id bigint,
  receipt_no varchar(32) not null,
  idempotency_key varchar(64) not null,
  operator varchar(64) not null default '',
  remark varchar(255) not null default '',
  create_user bigint,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
create unique index pms_recharge_idempotency on pms_recharge (tenant_id, idempotency_key);
create unique index pms_recharge_receipt on pms_recharge (tenant_id, receipt_no);
create index pms_recharge_time on pms_recharge (tenant_id, create_time desc);
create index pms_recharge_owner on pms_recharge (tenant_id, owner_id, create_time desc);

-- The daily close: one row per account and day (tenant's calendar) summing that day's ledger, kept
-- for statements. Written once (insert … on conflict do nothing), so a second run changes nothing
-- and a run cut short is finished by the next one.
create table pms_account_day (
  tenant_id varchar(12) not null,
  account_id bigint not null,
  day date not null,
  opening_balance bigint not null,
  usage bigint not null,
  usage_charge bigint not null,
  fee bigint not null,
  credit bigint not null,
  debit bigint not null,
  closing_balance bigint not null,
  entries integer not null,
  closed_time timestamptz not null default now(),
  primary key (account_id, day)
);
create index pms_account_day_tenant on pms_account_day (tenant_id, day);

-- Days whose close ran to the end: the scheduler skips them.
create table pms_day_close (
  day date primary key,
  finished_time timestamptz not null default now()
);
