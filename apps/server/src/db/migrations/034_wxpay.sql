-- WeChat Pay orders (spec §7 wxpay, issue 20): one row per order sent to WeChat Pay, JSAPI (the
-- owner's page) or Native (a QR code at the counter), linked to the unpaid payment it becomes and,
-- once paid, to the one recharge it booked. out_trade_no is unique per tenant; amounts whole fen.
create table pms_wx_pay (
  id bigint primary key,
  tenant_id varchar(12) not null,
  owner_id bigint not null,
  account_id bigint not null,
  room_id bigint,
  energy_type integer not null,
  meter_id bigint not null,
  payment_id bigint not null,
  recharge_id bigint,
  out_trade_no varchar(32) not null,
  -- jsapi or native
  trade_type varchar(8) not null check (trade_type in ('jsapi', 'native')),
  amount bigint not null check (amount > 0),
  appid varchar(32) not null,
  mchid varchar(32) not null,
  openid varchar(128) not null default '',
  prepay_id varchar(64) not null default '',
  code_url varchar(255) not null default '',
  -- WXPAY_STATE: 0 unpaid, 1 paid (recharge booked), 2 closed, 3 failed.
  state integer not null default 0 check (state in (0, 1, 2, 3)),
  transaction_id varchar(32) not null default '',
  paid_time timestamptz,
  expire_time timestamptz not null,
  refund_amount bigint not null default 0 check (refund_amount >= 0),
  description varchar(127) not null default '',
  operator varchar(64) not null default '',
  create_user bigint,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
create unique index pms_wx_pay_trade_no on pms_wx_pay (tenant_id, out_trade_no);
create unique index pms_wx_pay_payment on pms_wx_pay (payment_id);
create index pms_wx_pay_time on pms_wx_pay (tenant_id, create_time desc);
-- The query job's work: unpaid orders, oldest first.
create index pms_wx_pay_unpaid on pms_wx_pay (create_time) where state = 0;

-- Refunds of paid orders through WeChat Pay's refund API; each is booked once as a ledger refund.
create table pms_wx_refund (
  id bigint primary key,
  tenant_id varchar(12) not null,
  wx_pay_id bigint not null,
  out_refund_no varchar(64) not null,
  refund_id varchar(32) not null default '',
  amount bigint not null check (amount > 0),
  -- PROCESSING, SUCCESS, CLOSED, ABNORMAL as WeChat Pay answers.
  status varchar(16) not null default 'PROCESSING',
  recharge_id bigint,
  reason varchar(80) not null default '',
  operator varchar(64) not null default '',
  create_user bigint,
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now()
);
create unique index pms_wx_refund_no on pms_wx_refund (tenant_id, out_refund_no);
create index pms_wx_refund_pay on pms_wx_refund (wx_pay_id);
