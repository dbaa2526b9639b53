-- A closing whose refund is above the tenant's approval threshold waits for a second person: the
-- request is kept here (nothing booked, the account stays open) with its approval instance. On
-- approval the account is closed as any closing (usage priced to the last reading, the balance of
-- that moment refunded); on rejection the account stays open and the reason is kept.
create table pms_close_hold (
  id bigint primary key,
  tenant_id varchar(12) not null,
  energy_type smallint not null check (energy_type in (1, 2)),
  meter_id bigint not null,
  account_id bigint not null,
  -- The refund the request was made for (fen): the balance when it was asked.
  amount bigint not null check (amount > 0),
  -- 3 waiting for approval, 1 closed on approval, 4 rejected (account left open).
  state smallint not null default 3 check (state in (1, 3, 4)),
  approval_instance_id bigint,
  approval_note varchar(1000),
  -- What was refunded when the close went through on approval (fen).
  refunded bigint,
  operator varchar(64) not null default '',
  create_user bigint,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
-- One waiting closing per account: a second request answers the first's approval.
create unique index pms_close_hold_waiting on pms_close_hold (tenant_id, account_id) where state = 3;
create index pms_close_hold_instance on pms_close_hold (approval_instance_id) where approval_instance_id is not null;
