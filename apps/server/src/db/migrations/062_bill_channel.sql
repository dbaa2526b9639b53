-- One reconciliation for both payment channels (issue 39): a day's bill and its differences belong
-- to a channel, WeChat Pay ('wechat', what every existing row is) or Alipay ('alipay'). A bill is one
-- per tenant, channel, merchant (WeChat Pay's mchid, Alipay's app id) and China day. A trade paid at
-- Alipay that nothing here booked is its own kind, alipay_only, beside wechat_only.
alter table pms_wx_bill add column channel varchar(8) not null default 'wechat'
  check (channel in ('wechat', 'alipay'));
alter table pms_wx_bill_diff add column channel varchar(8) not null default 'wechat'
  check (channel in ('wechat', 'alipay'));
drop index pms_wx_bill_day;
create unique index pms_wx_bill_day on pms_wx_bill (tenant_id, channel, mchid, bill_date);
drop index pms_wx_bill_list;
create index pms_wx_bill_list on pms_wx_bill (tenant_id, channel, bill_date desc);
drop index pms_wx_bill_diff_one;
create unique index pms_wx_bill_diff_one on pms_wx_bill_diff (bill_id, channel, kind, out_trade_no);
drop index pms_wx_bill_diff_list;
create index pms_wx_bill_diff_list on pms_wx_bill_diff (tenant_id, channel, bill_date desc, state);
alter table pms_wx_bill_diff drop constraint pms_wx_bill_diff_kind_check;
alter table pms_wx_bill_diff add constraint pms_wx_bill_diff_kind_check
  check (kind in ('wechat_only', 'alipay_only', 'local_only', 'amount', 'counter_only'));
