-- Alipay orders (issue 39), beside WeChat Pay's pms_wx_pay: one row per trade sent to Alipay's
-- gateway, a QR code (alipay.trade.precreate), a phone browser page (alipay.trade.wap.pay) or a
-- payment code scanned at the counter (alipay.trade.pay), linked to the unpaid payment it becomes
-- and, once paid, to the one recharge it booked. out_trade_no is unique per tenant; amounts whole fen.
create table pms_alipay_pay (
  id bigint primary key,
  tenant_id varchar(12) not null,
  owner_id bigint not null,
  account_id bigint not null,
  room_id bigint,
  energy_type integer not null,
  meter_id bigint not null,
  payment_id bigint not null,
  recharge_id bigint,
  out_trade_no varchar(64) not null,
  trade_type varchar(8) not null check (trade_type in ('qr', 'wap', 'code')),
  amount bigint not null check (amount > 0),
  app_id varchar(32) not null,
  qr_code varchar(255) not null default '',
  -- ALIPAY_STATE as WXPAY_STATE: 0 unpaid, 1 paid (recharge booked), 2 closed, 3 failed.
  state integer not null default 0 check (state in (0, 1, 2, 3)),
  trade_no varchar(64) not null default '',
  buyer_id varchar(32) not null default '',
  paid_time timestamptz,
  expire_time timestamptz not null,
  refund_amount bigint not null default 0 check (refund_amount >= 0),
  subject varchar(128) not null default '',
  operator varchar(64) not null default '',
  create_user bigint,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
create unique index pms_alipay_pay_trade_no on pms_alipay_pay (tenant_id, out_trade_no);
create unique index pms_alipay_pay_payment on pms_alipay_pay (payment_id);
create index pms_alipay_pay_time on pms_alipay_pay (tenant_id, create_time desc);
-- The query job's work: unpaid orders, oldest first.
create index pms_alipay_pay_unpaid on pms_alipay_pay (create_time) where state = 0;

-- Refunds of paid orders through alipay.trade.refund (out_request_no unique per tenant); each is
-- booked once as a ledger refund, or held for approval first (status APPROVAL) by the money policy.
create table pms_alipay_refund (
  id bigint primary key,
  tenant_id varchar(12) not null,
  alipay_pay_id bigint not null,
  out_request_no varchar(64) not null,
  amount bigint not null check (amount > 0),
  -- PROCESSING, SUCCESS, CLOSED, APPROVAL, APPROVED, REJECTED.
  status varchar(16) not null default 'PROCESSING',
  recharge_id bigint,
  reason varchar(80) not null default '',
  operator varchar(64) not null default '',
  create_user bigint,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
create unique index pms_alipay_refund_no on pms_alipay_refund (tenant_id, out_request_no);
create index pms_alipay_refund_pay on pms_alipay_refund (alipay_pay_id);
