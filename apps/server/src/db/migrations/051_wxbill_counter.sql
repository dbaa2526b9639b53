-- WeChat reconciliation accounts for every recharge the ledger records as paid by WeChat: a day's
-- counter recharges recorded as 微信 (or 微信在线支付 without an online order) are counted beside the
-- WeChat Pay orders, one no trade of the bill accounts for is a difference of its own kind
-- (counter_only, naming the recharge), and a failed run keeps a code of why beside its message, so
-- the console can say it in the reader's language.
alter table pms_wx_bill add column counter_count integer not null default 0;
alter table pms_wx_bill add column counter_total bigint not null default 0;
alter table pms_wx_bill add column error_code varchar(32) not null default '';
alter table pms_wx_bill_diff drop constraint pms_wx_bill_diff_kind_check;
alter table pms_wx_bill_diff add constraint pms_wx_bill_diff_kind_check
  check (kind in ('wechat_only', 'local_only', 'amount', 'counter_only'));
alter table pms_wx_bill_diff add column counter_recharge_id bigint;
