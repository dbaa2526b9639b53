-- Payments (spec §7 payment): money received for an account, by method and channel, and the
-- recharges it paid for (pms_recharge.payment_id). A counter recharge is paid on the spot; an order
-- taken first (payment/save) waits unpaid until its confirmation books its recharge, exactly once.
create table pms_payment (
  id bigint primary key,
  tenant_id varchar(12) not null,
  owner_id bigint not null,
  account_id bigint not null,
  energy_type integer not null check (energy_type in (1, 2)),
  meter_id bigint not null,
  amount bigint not null check (amount > 0),
  -- PAYMENT_METHOD: 1 cash, 2 UnionPay, 3 WeChat, 4 Alipay, 5 WeChat online, 0 other.
  payment_method integer not null check (payment_method between 0 and 5),
  -- Where the money came in: counter (the front desk), online, bank (transfer), other.
  channel varchar(16) not null default 'counter',
  -- 0 unpaid, 1 paid, 2 failed or closed.
  state integer not null default 0 check (state in (0, 1, 2)),
  transaction_no varchar(64) not null default '',
  paid_time timestamptz,
  remark varchar(255) not null default '',
  operator varchar(64) not null default '',
  create_user bigint,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
create index pms_payment_time on pms_payment (tenant_id, create_time desc);
create index pms_payment_owner on pms_payment (tenant_id, owner_id, create_time desc);
create index pms_recharge_payment on pms_recharge (payment_id) where payment_id is not null;
