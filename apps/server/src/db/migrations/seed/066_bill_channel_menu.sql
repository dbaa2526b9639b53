-- One reconciliation for WeChat Pay and Alipay (issue 39): the screen 微信对账 reconciles both
-- channels now and is named for both. Its code, path and buttons stay, so every role keeps it.
update sys_menu set name = '支付对账' where id = 2080 and code = 'wxbill';
