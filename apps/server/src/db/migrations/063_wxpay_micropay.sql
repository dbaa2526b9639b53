-- WeChat Pay payment codes scanned at the counter (issue 39, APIv3 codepay): their orders are
-- pms_wx_pay rows like JSAPI and Native ones, of trade type micropay, followed by query and reversed
-- (not closed) when the payer never confirms.
alter table pms_wx_pay drop constraint pms_wx_pay_trade_type_check;
alter table pms_wx_pay add constraint pms_wx_pay_trade_type_check
  check (trade_type in ('jsapi', 'native', 'micropay'));
