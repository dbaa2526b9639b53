-- Owners are warned by SMS and on the owner page this many days before the forecast cut; a tenant
-- sets its own under 资金审批设置 (0 or empty: no warnings). Tenant-level, default 3.
insert into sys_param (id, param_name, param_key, param_value, remark, platform_wide) values
  (2630, '余额用尽预警天数', 'owner.forecast.warnDays', '3', '预计余额在该天数内用尽时短信提醒业主并在业主页显示,0或留空为不提醒', 0);
