-- Owner warnings before the forecast cut (issue 36 point 5): once a day each open account's days
-- until its balance is spent are forecast from its recent daily charges; an account whose forecast
-- falls to the tenant's warning days (or fewer) texts its owner once. The warning is one per
-- episode: it is sent when the forecast first falls within the warning days and not again until a
-- recharge lifts the forecast above them and it falls again.
--
-- pms_forecast_warning holds each account's episode: open = 1 while the owner has been warned and
-- the forecast has stayed within the warning days; the last forecast, balance and message stay for
-- the operator to read.
create table pms_forecast_warning (
  tenant_id varchar(12) not null,
  account_id bigint not null,
  open integer not null default 0 check (open in (0, 1)),
  -- The local day the episode's warning was sent, its forecast (days) and the balance then (fen).
  warned_day date,
  warned_days integer,
  warned_balance bigint,
  -- The queued SMS of the episode (pms_message_queue).
  message_id bigint,
  -- The last run's forecast: days until spent (null: outlasts the horizon or spends nothing).
  forecast_days integer,
  forecast_day date,
  -- The balance that forecast was made from (fen): a console showing the figure later hides it once
  -- a recharge raised the balance above it.
  forecast_balance bigint,
  update_time timestamptz not null default now(),
  primary key (tenant_id, account_id)
);

-- Which tenant's warning run took place for which local day: the first process to insert the row runs it.
create table pms_forecast_run (
  tenant_id varchar(12) not null,
  run_day date not null,
  create_time timestamptz not null default now(),
  primary key (tenant_id, run_day)
);

-- A usage charge's day is what the forecast's daily figures are summed by.
create index pms_ledger_usage_day on pms_ledger (tenant_id, usage_day) where entry_type = 6;
